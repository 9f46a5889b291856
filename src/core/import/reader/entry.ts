import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, rename, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { AppError } from '../../../contract'

/** The reader's script in a build: electron-vite builds `src/core/import/reader/child.ts` beside main's `index.js`. */
export const BUILT_READER = 'importReader.js'

let fromSources: Promise<string> | null = null

/**
 * Where the reader's script is when the host does not say: `LCB_IMPORT_READER_ENTRY`; else the built one beside this
 * code (the app: core is bundled into `out/main/index.js`, the reader into `out/main/importReader.js`); else, where
 * core runs from its sources (the harness and the tests, through tsx or vitest), `child.ts` bundled with esbuild at
 * first use into `node_modules/.cache/lcb-readers` (named by its content's hash, so runs side by side share it).
 */
export function defaultReaderEntry(): Promise<string> {
  const fromEnv = process.env.LCB_IMPORT_READER_ENTRY
  if (fromEnv) return Promise.resolve(fromEnv)
  // Beside this code, or one folder up if the bundler put this code in a shared chunk (`out/main/chunks/`).
  const built = [join(__dirname, BUILT_READER), join(__dirname, '..', BUILT_READER)].find((path) => existsSync(path))
  if (built) return Promise.resolve(built)
  const source = join(__dirname, 'child.ts')
  if (existsSync(source)) return (fromSources ??= bundleFromSources(source))
  return Promise.reject(
    new AppError('internal', 'The import reader is missing from this build', {
      detail: `Neither ${join(__dirname, BUILT_READER)} nor ${source} exists`,
      hint: 'Build the app again (npm run build), or set LCB_IMPORT_READER_ENTRY',
    }),
  )
}

async function bundleFromSources(source: string): Promise<string> {
  // Never reached in a build (the built reader is there), so the bundler must not follow it: a name, not a literal.
  const esbuild = 'esbuild'
  const { build } = (await import(/* @vite-ignore */ esbuild)) as typeof import('esbuild')
  const repo = resolve(__dirname, '../../../..')
  const result = await build({ entryPoints: [source], write: false, bundle: true, platform: 'node', format: 'cjs', target: 'node20', packages: 'external', logLevel: 'warning', absWorkingDir: repo })
  const code = result.outputFiles[0]!.contents
  // Inside node_modules, so the bundle's `require('apache-arrow')` and friends resolve as they do from the sources.
  const dir = join(repo, 'node_modules', '.cache', 'lcb-readers')
  const path = join(dir, `importReader-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.cjs`)
  if (!existsSync(path)) {
    await mkdir(dir, { recursive: true })
    const partial = `${path}.${process.pid}.tmp`
    await writeFile(partial, code)
    await rename(partial, path)
  }
  return path
}
