/**
 * The harness cannot be knocked over without its token: Host, Origin and token are checked from the
 * request head, before any body is read, and a refused request's connection is closed, so a large body
 * is neither buffered nor drained. Only the upload route takes a large body, streamed to a file.
 */
import http from 'node:http'
import { Readable } from 'node:stream'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startHarness, type Harness } from '../../../src/harness/server'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

const MiB = 1024 * 1024
const BODY = 64 * MiB

let dir: string
let harness: Harness
beforeAll(async () => {
  dir = await makeTempDir('lcb-harness-bodies-')
  await buildCatalog(join(dir, 'catalog'), { namespaces: [['lab']] })
  harness = await startHarness({ root: join(dir, 'catalog') })
})
afterAll(async () => {
  await harness?.close()
  await removeDir(dir)
})

/**
 * Stream `BODY` bytes of `type` (produced lazily, 1 MiB at a time) and report the status and how many
 * bytes had been produced when the answer came. The server may close the socket while we still write.
 */
function streamBody(path: string, headers: Record<string, string>): Promise<{ status: number; produced: number; body: string }> {
  const url = new URL(harness.origin)
  let produced = 0
  const chunk = Buffer.alloc(MiB, 0x61)
  const source = new Readable({
    read() {
      if (produced >= BODY) return this.push(null)
      produced += chunk.length
      this.push(chunk)
    },
  })
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: 'POST', path, headers: { 'content-length': String(BODY), ...headers }, agent: false }, (res) => {
      const at = produced
      const parts: Buffer[] = []
      res.on('data', (c: Buffer) => parts.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, produced: at, body: Buffer.concat(parts).toString('utf8') }))
      res.on('error', () => resolve({ status: res.statusCode ?? 0, produced: at, body: Buffer.concat(parts).toString('utf8') }))
      source.unpipe(req)
      source.destroy()
    })
    req.on('error', (error) => (req.writableEnded ? undefined : reject(error)))
    source.pipe(req)
  })
}

describe('harness: requests are refused from their head, before any body is read', () => {
  const host = () => `127.0.0.1:${harness.port}`
  const cases = [
    { name: 'text/plain to the API, no token', path: '/api/tables/list', headers: () => ({ 'content-type': 'text/plain' }), status: 401 },
    { name: 'JSON to the API, no token', path: '/api/app/info', headers: () => ({ 'content-type': 'application/json' }), status: 401 },
    { name: 'upload, no token', path: '/api/upload', headers: () => ({ 'content-type': 'application/octet-stream' }), status: 401 },
    { name: 'upload as text/plain, with the token', path: '/api/upload', headers: () => ({ 'content-type': 'text/plain', 'x-harness-token': harness.token }), status: 415 },
    { name: 'a foreign Origin, with the token', path: '/api/upload', headers: () => ({ 'content-type': 'application/octet-stream', origin: 'http://evil.example', 'x-harness-token': harness.token }), status: 403 },
    { name: 'a foreign Host', path: '/api/app/info', headers: () => ({ 'content-type': 'application/json', host: 'evil.example' }), status: 403 },
    { name: 'a POST outside the API', path: '/index.html', headers: () => ({ 'content-type': 'text/plain' }), status: 405 },
  ]
  for (const c of cases) {
    it(`${c.name}: ${c.status}, answered before the 64 MiB body is sent, without buffering it`, async () => {
      const before = process.memoryUsage().rss
      const r = await streamBody(c.path, { host: host(), ...c.headers() })
      const grown = process.memoryUsage().rss - before
      expect(r.status, r.body).toBe(c.status)
      expect(JSON.parse(r.body)).toMatchObject({ ok: false })
      expect(r.produced).toBeLessThan(BODY)
      expect(grown).toBeLessThan(BODY / 2)
    })
  }

  it('a JSON API body over the small limit is refused (413) even with the token', async () => {
    const r = await streamBody('/api/app/info', { host: host(), 'content-type': 'application/json', 'x-harness-token': harness.token })
    expect(r.status).toBe(413)
    expect(r.produced).toBeLessThan(BODY)
  })

  it('still serves the API and the page to a caller with the token', async () => {
    const info = await fetch(`${harness.origin}/api/app/info`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-harness-token': harness.token }, body: '{}' })
    expect(info.status).toBe(200)
    expect((await info.json()) as unknown).toMatchObject({ ok: true })
    expect((await fetch(`${harness.origin}/`)).status).toBe(200)
  })
})
