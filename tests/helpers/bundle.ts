import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { build } from 'esbuild'

export const REPO = join(__dirname, '../..')
/** Inside node_modules, so the bundle's `require('apache-arrow')` and friends resolve as they do from the sources. */
const OUT_DIR = join(REPO, 'node_modules', '.cache', 'lcb-tests')
const bundles = new Map<string, Promise<string>>()

/**
 * A TypeScript entry (a fixture, or src/server/cli.ts) bundled into one CommonJS file, packages left external;
 * resolves with the file to run: `spawn(process.execPath, [path, ...args])`. Tests that start the same script
 * many times (crash.test.ts kills ~45 writers, the server tests start a dozen servers) otherwise pay tsx's loader
 * for every start: about 1.8 s of CPU per process against 0.8 s bundled. The code run is the same source,
 * transpiled by the same esbuild tsx uses; only the module loading differs.
 *
 * Built once per process and entry; the file is named by its content's hash and written with a rename, so test
 * files running side by side share it safely and a rerun of unchanged sources reuses it.
 */
export function bundleScript(entry: string): Promise<string> {
  let bundle = bundles.get(entry)
  if (!bundle) {
    bundle = (async () => {
      const result = await build({ entryPoints: [entry], write: false, bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', logLevel: 'warning', absWorkingDir: REPO })
      const code = result.outputFiles[0]!.contents
      const path = join(OUT_DIR, `${basename(entry).replace(/\.[cm]?tsx?$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.cjs`)
      if (!existsSync(path)) {
        await mkdir(OUT_DIR, { recursive: true })
        const partial = `${path}.${process.pid}.tmp`
        await writeFile(partial, code)
        await rename(partial, path)
      }
      return path
    })()
    bundles.set(entry, bundle)
  }
  return bundle
}

/** `npm run serve` (src/server/cli.ts) bundled: what the server tests start, as `[path, ...args]` after process.execPath. */
export const serverCli = (): Promise<string> => bundleScript(join(REPO, 'src', 'server', 'cli.ts'))
