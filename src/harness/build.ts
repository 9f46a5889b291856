import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/** The renderer inside an electron-vite output directory (`<outDir>/renderer`). */
export function rendererDirOf(outDir: string): string {
  return join(resolve(outDir), 'renderer')
}

export function rendererBuilt(rendererDir: string): boolean {
  return existsSync(join(rendererDir, 'index.html'))
}

/**
 * Build the app (`electron-vite build --outDir <outDir>`) when its renderer is missing, so a fresh clone can
 * run `npm run harness` at once. The build's own output goes to stderr: stdout stays the one `harness:` line, and
 * no status line starts with `harness:`.
 */
export async function ensureRendererBuilt(outDir: string, log: (line: string) => void = (line) => console.error(line)): Promise<boolean> {
  const rendererDir = rendererDirOf(outDir)
  if (rendererBuilt(rendererDir)) return false
  // Not `harness:`: that prefix is the URL line's alone, so a script reading both streams finds it first.
  log(`building: ${join(rendererDir, 'index.html')} is missing; building the app (electron-vite build)…`)
  const bin = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js')
  const repoRoot = resolve(__dirname, '../..')
  const code = await new Promise<number>((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, 'build', '--outDir', resolve(outDir)], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.pipe(process.stderr)
    child.stderr.pipe(process.stderr)
    child.on('error', reject)
    child.on('close', (exitCode) => resolvePromise(exitCode ?? 1))
  })
  if (code !== 0 || !rendererBuilt(rendererDir)) throw new Error(`building the renderer failed (electron-vite build exited with ${code}); see the output above`)
  return true
}
