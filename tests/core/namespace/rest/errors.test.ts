import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/contract'
import { RestNamespaceClient, type RestClientOptions } from '../../../../src/core/namespace/rest'
import { captureServer, NEVER, type Captured, type Scripted } from './capture'
import { appError } from '../../../helpers/errors'

const KEY = 'k-secret-7d1f2a'
let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

async function setup(answer: (req: Captured, i: number) => Scripted, options: Partial<RestClientOptions> = {}) {
  const server = await captureServer(answer)
  close = server.close
  const client = new RestNamespaceClient({ uri: server.url, headers: { 'x-api-key': KEY }, backoffMs: 1, ...options })
  return { client, requests: server.requests }
}


describe('errors are decided by the integer code of the body', () => {
  const cases: Array<[number, number, AppError['code'], RegExp]> = [
    [16, 401, 'unauthenticated', /rejected the API key/],
    [15, 403, 'permission_denied', /permission/i],
    [1, 404, 'not_found', /not found/],
    [4, 404, 'not_found', /not found/],
    [2, 409, 'already_exists', /already exists/],
    [5, 409, 'already_exists', /already exists/],
    [3, 409, 'not_empty', /not empty/],
    [13, 400, 'invalid_input', /invalid input/],
    [21, 429, 'throttled', /throttling/],
    [17, 503, 'unavailable', /unavailable/],
    [0, 406, 'unsupported', /does not support/],
    [18, 500, 'internal', /failed/],
  ]
  for (const [code, status, appCode, message] of cases) {
    it(`code ${code} → ${appCode}`, async () => {
      // The status is deliberately wrong (500): only the code counts.
      const { client } = await setup(() => ({ status: status === 500 ? 418 : 500, body: { error: `server says ${code}`, code } }), { maxRetries: 0 })
      const e = await appError(client.describeNamespace(['sales']))
      expect(e.code).toBe(appCode)
      expect(e.message).toMatch(message)
    })
  }

  it('falls back to the HTTP status when the body has no integer code', async () => {
    for (const [status, body, appCode] of [
      [401, 'Unauthorized', 'unauthenticated'],
      [403, '{"error":"no","code":"15"}', 'permission_denied'],
      [409, '', 'conflict'],
      [429, '<html>slow down</html>', 'throttled'],
      [503, 'down', 'unavailable'],
      [500, '{"message":"boom"}', 'internal'],
    ] as const) {
      const { client } = await setup(() => ({ status, body }), { maxRetries: 0 })
      expect((await appError(client.describeNamespace(['x']))).code, `${status}`).toBe(appCode)
      await close?.()
      close = undefined
    }
  })

  it('never puts the key into messages or details, even when the server echoes it', async () => {
    const { client } = await setup((req) => ({ status: 401, body: { error: `key ${req.headers['x-api-key']} is not valid`, code: 16, detail: `got ${KEY}` } }))
    const e = await appError(client.listTables([]))
    const text = JSON.stringify({ m: e.message, d: e.detail, h: e.hint, s: e.stack })
    expect(text).not.toContain(KEY)
    expect(e.detail).toContain('•••••')
  })
})

describe('retries, throttling and the capability map', () => {
  it('retries reads on 503 / code 17 with backoff, and succeeds', async () => {
    const { client, requests } = await setup((_r, i) => (i < 2 ? { status: 503, body: { error: 'busy', code: 17 } } : { body: { namespaces: ['a'] } }))
    expect((await client.listNamespaces([])).items).toEqual(['a'])
    expect(requests).toHaveLength(3)
  })

  it('gives up after a bounded number of attempts', async () => {
    const { client, requests } = await setup(() => ({ status: 503, body: { error: 'busy', code: 17 } }), { maxRetries: 2 })
    expect((await appError(client.listNamespaces([]))).code).toBe('unavailable')
    expect(requests).toHaveLength(3)
  })

  it('never retries a write blindly', async () => {
    const { client, requests } = await setup(() => ({ status: 503, body: { error: 'busy', code: 17 } }))
    expect((await appError(client.createNamespace(['a']))).code).toBe('unavailable')
    expect(requests).toHaveLength(1)
    const e = await appError(client.dropTable({ namespace: [], name: 't' }))
    expect(e.code).toBe('unavailable')
    expect(requests).toHaveLength(2)
  })

  it('honours Retry-After on 429 (reads, and writes the server explicitly deferred)', async () => {
    const { client, requests } = await setup((_r, i) => (i % 2 === 0 ? { status: 429, headers: { 'retry-after': '0' }, body: { error: 'slow', code: 21 } } : { body: {} }))
    await client.describeNamespace(['a'])
    await client.createNamespace(['b'])
    expect(requests.map((r) => r.path)).toEqual(['/v1/namespace/a/describe', '/v1/namespace/a/describe', '/v1/namespace/b/create', '/v1/namespace/b/create'])
  })

  it('says how long to wait when Retry-After is too long to sleep through', async () => {
    const { client, requests } = await setup(() => ({ status: 429, headers: { 'retry-after': '120' }, body: { error: 'slow', code: 21 } }))
    const e = await appError(client.listTables([]))
    expect(e.code).toBe('throttled')
    expect(e.message).toMatch(/try again in 120 s/)
    expect(requests).toHaveLength(1)
  })

  it('records code 0 and 404-for-the-route as unsupported, and fails fast afterwards', async () => {
    const { client, requests } = await setup((req) => {
      if (req.path.endsWith('/rename')) return { status: 406, body: { error: 'rename_table not implemented', code: 0 } }
      if (req.path === '/v1/tables') return { status: 404, body: 'Not Found' }
      if (req.path.endsWith('/describe')) return { status: 404, body: { error: 'Table t not found', code: 4 } }
      return { body: {} }
    })
    const rename = await appError(client.renameTable({ namespace: [], name: 't' }, 'u'))
    expect(rename.code).toBe('unsupported')
    expect(rename.message).toMatch(/renaming tables/)
    const list = await appError(client.listAllTables())
    expect(list.code).toBe('unsupported')
    expect((await appError(client.describeNamespace(['t']))).code).toBe('not_found') // a missing object is not a missing route
    const snapshot = client.capabilities.snapshot()
    expect(snapshot['table.rename']).toEqual({ supported: false, reason: 'rename_table not implemented' })
    expect(snapshot['table.listAll'].supported).toBe(false)
    expect(snapshot['namespace.describe'].supported).toBeUndefined()
    const sent = requests.length
    expect((await appError(client.renameTable({ namespace: [], name: 't' }, 'v'))).code).toBe('unsupported')
    expect(requests.length).toBe(sent) // no request: the UI can disable the action
    await client.dropTable({ namespace: [], name: 't' })
    expect(client.capabilities.snapshot()['table.drop'].supported).toBe(true)
  })
})

describe('network failures in words', () => {
  it('reports a refused connection', async () => {
    const server = http.createServer()
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const port = (server.address() as AddressInfo).port
    await new Promise<void>((r) => server.close(() => r()))
    const client = new RestNamespaceClient({ uri: `http://127.0.0.1:${port}`, maxRetries: 1, backoffMs: 1 })
    const e = await appError(client.listTables([]))
    expect(e.code).toBe('unavailable')
    expect(e.message).toMatch(/refused the connection/)
  })

  it('reports a name that DNS cannot find', async () => {
    const client = new RestNamespaceClient({ uri: 'http://no-such-host.invalid', maxRetries: 0 })
    const e = await appError(client.listTables([]))
    expect(e.message).toMatch(/could not be found \(DNS\)/)
  })

  it('reports a TLS failure (https to a plain HTTP server)', async () => {
    const { client: plain } = await setup(() => ({ body: {} }))
    const client = new RestNamespaceClient({ uri: plain.endpoint.replace('http:', 'https:'), maxRetries: 0 })
    const e = await appError(client.listTables([]))
    expect(e.message).toMatch(/secure \(TLS\) connection/)
  })

  it('times out a server that never answers, and cancels on abort', async () => {
    const { client } = await setup(() => NEVER, { timeoutMs: 200, maxRetries: 0 })
    const timeout = await appError(client.listTables([]))
    expect(timeout.code).toBe('timeout')
    expect(timeout.message).toMatch(/did not answer/)
    const controller = new AbortController()
    const pending = client.listTables([], { signal: controller.signal })
    controller.abort()
    expect((await appError(pending)).code).toBe('cancelled')
  })

  it('times out a reply whose body stalls halfway', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
      res.write('{"namespaces":[') // …and nothing more
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())))
    const client = new RestNamespaceClient({ uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, timeoutMs: 200, maxRetries: 0 })
    const e = await appError(client.listNamespaces([]))
    expect(e.code).toBe('timeout')
    expect(e.message).toMatch(/stopped sending the reply/)
  })

  it('cancels a request still waiting for a free connection at once', async () => {
    const { client, requests } = await setup(() => NEVER, { maxRetries: 0, connections: 1 })
    const first = client.listTables([])
    while (requests.length === 0) await new Promise((r) => setTimeout(r, 5))
    const controller = new AbortController()
    const queued = client.listTables(['sales'], { signal: controller.signal })
    controller.abort()
    expect((await appError(queued)).code).toBe('cancelled')
    expect(requests).toHaveLength(1) // it never went out
    await client.close()
    expect((await appError(first)).code).toBe('cancelled')
  })

  it('close() cancels the requests in flight, and later calls fail at once', async () => {
    const { client, requests } = await setup(() => NEVER, { maxRetries: 0 })
    const pending = client.listTables([])
    while (requests.length === 0) await new Promise((r) => setTimeout(r, 5))
    await client.close()
    const e = await appError(pending)
    expect(e.code).toBe('cancelled')
    expect((await appError(client.listTables([]))).code).toBe('cancelled')
    expect(requests).toHaveLength(1)
  })

  it('keeps connections alive across requests, and opens no more than its limit', async () => {
    let sockets = 0
    const server = http.createServer((req, res) => {
      req.resume()
      req.on('end', () => setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"namespaces":[]}'), 20))
    })
    server.on('connection', () => sockets++)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())))
    const client = new RestNamespaceClient({ uri: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: 3 })
    for (let i = 0; i < 20; i++) await client.listNamespaces([])
    // Not one per request. (undici may open a second one: a connection counts as free again one tick
    // after its reply has been read, and the next request can come sooner.)
    expect(sockets).toBeLessThanOrEqual(2)
    await Promise.all(Array.from({ length: 9 }, () => client.listNamespaces([])))
    expect(sockets).toBe(3) // the pool's limit: the other requests waited for a free connection
    await client.close()
  })

  it('does not follow redirects (the key would travel with them), and says where to point instead', async () => {
    const { client, requests } = await setup(() => ({ status: 307, headers: { location: 'https://elsewhere.example/v1/tables' }, body: '' }))
    const e = await appError(client.listTables([]))
    expect(e.code).toBe('invalid_input')
    expect(e.message).toMatch(/redirects .*https:\/\/elsewhere\.example/)
    expect(requests).toHaveLength(1)
  })

  it('rejects a success reply that is not JSON', async () => {
    const { client } = await setup(() => ({ body: '<html>login page</html>', headers: { 'content-type': 'text/html' } }))
    const e = await appError(client.describeNamespace(['a']))
    expect(e.message).toMatch(/not JSON/)
  })
})
