/**
 * The first run, as a user meets it: `npm start` / `npm run dev` where the Electron binary cannot be
 * downloaded, and `npm run harness` on a clone that has never been built.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, removeDir } from '../helpers/catalog'

const REPO = resolve(__dirname, '../..')
const electronInstalled = existsSync(join(REPO, 'node_modules', 'electron', 'path.txt'))

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }))
  })
}

/** A loopback port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  await new Promise<void>((done) => server.close(() => done()))
  return port
}

describe.skipIf(electronInstalled)('Electron download fails (no Electron binary installed here)', () => {
  let mirror = ''
  beforeAll(async () => {
    mirror = `http://127.0.0.1:${await closedPort()}/electron/`
  })

  for (const script of ['start', 'dev']) {
    it(`npm run ${script} says what failed, why and what to do, and exits non-zero`, async () => {
      const result = await run('npm', ['run', script], { ELECTRON_MIRROR: mirror, electron_config_cache: join(REPO, '.tmp', 'no-electron-cache') })
      expect(result.code).not.toBe(0)
      expect(result.stderr).toContain(`npm ${script}: could not download the Electron binary (electron `)
      // Why: the network error under undici's "fetch failed", not a stack.
      expect(result.stderr).toMatch(/why: TypeError: fetch failed — .*ECONNREFUSED 127\.0\.0\.1/)
      expect(result.stderr).toContain(`(downloading from ELECTRON_MIRROR=${mirror})`)
      expect(result.stderr).toContain('ELECTRON_GET_USE_PROXY=1')
      expect(result.stderr).toContain('npm run harness -- --root <catalog dir>')
      expect(result.stderr).not.toMatch(/^\s+at /m)
      // The build and the app never started.
      expect(result.stdout).not.toContain('electron-vite')
    })
  }
})

describe('npm run harness on a clone that was never built', () => {
  let dir = ''
  beforeAll(async () => {
    dir = await makeTempDir('lcb-harness-build-')
  })
  afterAll(async () => {
    await removeDir(dir)
  })

  it('builds the app into the out dir, then prints its harness: line', { timeout: 300_000 }, async () => {
    const outDir = join(dir, 'out')
    expect(existsSync(join(outDir, 'renderer', 'index.html'))).toBe(false)
    const child = spawn(process.execPath, [join(REPO, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'src/harness/cli.ts', '--root', dir, '--out-dir', outDir], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const line = await new Promise<string>((resolvePromise, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString()
        const match = /^harness: (\S+)$/m.exec(stdout)
        if (match) resolvePromise(match[1] ?? '')
      })
      child.on('close', (code) => reject(new Error(`harness exited (${code}) before printing its URL:\n${stdout}\n${stderr}`)))
    })
    try {
      expect(stderr).toContain('is missing; building the app (electron-vite build)')
      expect(existsSync(join(outDir, 'renderer', 'index.html'))).toBe(true)
      // stdout holds the one harness line; the build's output went to stderr.
      expect(stdout.trim()).toBe(`harness: ${line}`)
      // A script reading both streams (2>&1) finds one `harness:` line, the URL: status lines use another prefix.
      expect(`${stderr}\n${stdout}`.split('\n').filter((l) => l.startsWith('harness:'))).toEqual([`harness: ${line}`])
      expect(stderr).toMatch(/^building: .* is missing; building the app/m)
      const page = await fetch(new URL('/', line))
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('<div id="root">')
    } finally {
      const closed = new Promise((done) => child.on('close', done))
      child.kill('SIGTERM')
      await closed
    }
  })
})
