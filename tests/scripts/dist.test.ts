/**
 * `npm run dist` where electron-builder cannot download Electron: it stops, says what failed, why and what to do,
 * and exits 1. The download goes to a loopback port nothing listens on (ELECTRON_MIRROR) with an empty cache, so
 * this fails the same way on every machine, online or not.
 */
import { spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { makeTempDir, removeDir } from '../helpers/catalog'

const REPO = resolve(__dirname, '../..')

async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  await new Promise<void>((done) => server.close(() => done()))
  return port
}

describe('npm run dist without a way to download Electron', () => {
  it('says what failed, why and what to do, without a stack, and exits 1', { timeout: 180_000 }, async () => {
    const cache = await makeTempDir('lcb-dist-cache-')
    const output = await makeTempDir('lcb-dist-out-')
    const mirror = `http://127.0.0.1:${await closedPort()}/electron/`
    try {
      // --prebuilt: package the out/ that `npm run build` made (building again would rewrite it under other tests).
      // --dir: the unpacked app only, for this platform; the download is the first thing it needs.
      const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done, reject) => {
        const child = spawn(process.execPath, ['scripts/dist.mjs', '--prebuilt', '--dir', `-c.directories.output=${output}`], {
          cwd: REPO,
          env: { ...process.env, ELECTRON_MIRROR: mirror, electron_config_cache: cache, ELECTRON_BUILDER_CACHE: cache },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        let stdout = ''
        let stderr = ''
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
        child.on('error', reject)
        child.on('close', (code) => done({ code, stdout, stderr }))
      })
      expect(result.code).toBe(1)
      const message = result.stderr.slice(result.stderr.indexOf('npm run dist:'))
      expect(message).toMatch(/^npm run dist: electron-builder could not download what it packages the app with \(Electron \d+\.\d+\.\d+ for /)
      expect(message).toMatch(/why: .*ECONNREFUSED 127\.0\.0\.1/)
      expect(message).toContain(`(downloading Electron from ELECTRON_MIRROR=${mirror})`)
      expect(message).toContain('HTTPS_PROXY=')
      expect(message).toContain('-c.electronDist=<path>')
      expect(message).not.toMatch(/^\s+at /m)
    } finally {
      await removeDir(cache)
      await removeDir(output)
    }
  })
})
