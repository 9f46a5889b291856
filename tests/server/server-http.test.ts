import { spawn } from 'node:child_process'
import http from 'node:http'
import net from 'node:net'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import * as arrow from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectNamespace } from '../../src/core/namespace/connect'
import '../../src/core/namespace/dir'
import { startServer } from '../../src/server'
import { until } from '../helpers/processes'
import { arrowStream, KEY, sampleTable, serveTemp, tempDir } from './support'

const STREAM = 'application/vnd.apache.arrow.stream'

type Server = Awaited<ReturnType<typeof serveTemp>>

// Replies are checked field by field; a loose type keeps that readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type J = any
type Body = string | Uint8Array
type Reply = Omit<Response, 'json' | 'clone'> & { json(): Promise<J>; clone(): Reply }

function call(server: { url: string }, method: string, path: string, init: { body?: Body; type?: string; headers?: Record<string, string>; key?: string | null } = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) }
  if (init.key !== null) headers['x-api-key'] = init.key ?? KEY
  if (init.type) headers['content-type'] = init.type
  return fetch(`${server.url}${path}`, { method, headers, body: init.body }) as Promise<Reply>
}
/** node:http keeps the path verbatim (fetch's URL parser would resolve `..` and `%2e%2e` itself). */
function rawCall(server: { url: string }, method: string, path: string, init: { body?: Uint8Array | string; type?: string }) {
  const url = new URL(server.url)
  return new Promise<{ status: number; json: () => J }>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers: { 'x-api-key': KEY, ...(init.type ? { 'content-type': init.type } : {}) } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: () => JSON.parse(Buffer.concat(chunks).toString('utf8')) }))
    })
    req.on('error', reject)
    req.end(init.body)
  })
}
const json = (value: unknown) => ({ body: JSON.stringify(value), type: 'application/json' })

describe('our catalog server over plain HTTP', () => {
  let server: Server
  beforeAll(async () => {
    server = await serveTemp()
  })
  afterAll(async () => {
    await server?.close()
  })

  it('runs the verification sequence: list, create from an Arrow stream, list again and see the table', async () => {
    const first = await call(server, 'GET', '/v1/tables')
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ tables: [] })

    const created = await call(server, 'POST', '/v1/tables/words', { body: arrowStream(), type: STREAM })
    expect(created.status).toBe(200)
    expect(await created.json()).toMatchObject({ version: 1 })

    const again = await call(server, 'GET', '/v1/tables')
    expect((await again.json()).tables).toContain('words')

    const twice = await call(server, 'POST', '/v1/tables/words', { body: arrowStream(), type: STREAM })
    expect(twice.status).toBe(409)
    expect(await twice.json()).toMatchObject({ code: 5 })
  })

  it('answers describe with an absolute location, and schema/version/row count when asked', async () => {
    const plain = await (await call(server, 'POST', '/v1/table/words/describe', json({ id: ['words'] }))).json()
    expect(Object.keys(plain)).toEqual(['location'])
    expect(plain.location.startsWith('/')).toBe(true)
    expect(existsSync(join(plain.location, '_versions'))).toBe(true)

    const detailed = await (await call(server, 'POST', '/v1/table/words/describe?delimiter=%24&load_detailed_metadata=true', json({ id: ['words'] }))).json()
    expect(detailed.version).toBe(1)
    expect(detailed.schema.fields.map((f: { name: string; type: { type: string } }) => [f.name, f.type.type])).toEqual([
      ['id', 'int64'],
      ['label', 'utf8'],
    ])
    const count = await call(server, 'GET', '/v1/table/words/count_rows?delimiter=%24')
    expect(await count.text()).toBe('3')
    const countPost = await call(server, 'POST', '/v1/table/words/count_rows', json({ id: ['words'] }))
    expect(await countPost.text()).toBe('3')
  })

  it('answers query with an Arrow IPC file, honouring k, offset and columns', async () => {
    const r = await call(server, 'POST', '/v1/table/words/query', json({ id: ['words'], k: 2, offset: 1, vector: {}, columns: { column_names: ['label'] } }))
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/vnd.apache.arrow.file')
    const bytes = new Uint8Array(await r.arrayBuffer())
    expect(new TextDecoder().decode(bytes.subarray(0, 6))).toBe('ARROW1')
    const table = arrow.tableFromIPC(bytes)
    expect(table.schema.fields.map((f) => f.name)).toEqual(['label'])
    expect([...table.getChild('label')!]).toEqual(['row 2', 'row 3'])
    const asked = await call(server, 'POST', '/v1/table/words/query', { ...json({ k: 3, vector: {} }), headers: { accept: 'application/vnd.apache.arrow.stream, application/vnd.apache.arrow.file;q=0.9' } })
    expect(asked.headers.get('content-type')).toBe('application/vnd.apache.arrow.stream')
    const streamBytes = new Uint8Array(await asked.arrayBuffer())
    expect(arrow.RecordBatchReader.from(streamBytes).isStream()).toBe(true)
    expect(arrow.tableFromIPC(streamBytes).numRows).toBe(3)
    const vectorSearch = await call(server, 'POST', '/v1/table/words/query', json({ k: 2, vector: { single_vector: [1, 2] } }))
    // Vector searches run now (tests/server/query-routes.test.ts); this table has no vector column.
    expect(vectorSearch.status).toBe(400)
    expect(await vectorSearch.json()).toMatchObject({ code: 13, error: expect.stringMatching(/no vector column/) })
  })

  it('creates, inserts, renames, checks and drops with JSON replies', async () => {
    const create = await call(server, 'POST', '/v1/namespace/lab/create', json({ id: ['lab'], mode: 'Create' }))
    expect(create.status).toBe(200)
    expect(await create.json()).toEqual({})
    expect((await call(server, 'POST', '/v1/namespace/lab/create', json({ mode: 'ExistOk' }))).status).toBe(200)
    const dup = await call(server, 'POST', '/v1/namespace/lab/create', json({}))
    expect(dup.status).toBe(409)
    expect(await dup.json()).toMatchObject({ code: 2 })

    const made = await call(server, 'POST', '/v1/table/lab%24runs/create?delimiter=%24&mode=create', { body: arrowStream(sampleTable(5)), type: STREAM })
    expect(made.status).toBe(200)
    const inserted = await call(server, 'POST', '/v1/table/lab%24runs/insert?mode=append', { body: arrowStream(sampleTable(2)), type: STREAM })
    expect(await inserted.json()).toMatchObject({ version: 2, num_inserted_rows: 2 })
    expect(await (await call(server, 'GET', '/v1/table/lab%24runs/count_rows')).text()).toBe('7')

    const exists = await call(server, 'POST', '/v1/table/lab%24runs/exists', json({ id: ['lab', 'runs'] }))
    expect(exists.status).toBe(200)
    expect(await exists.text()).toBe('') // "Success, no content" (the spec)
    const missing = await call(server, 'POST', '/v1/table/lab%24nope/exists', json({}))
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ code: 4 })
    const missingNs = await call(server, 'POST', '/v1/namespace/nope/exists', json({}))
    expect(await missingNs.json()).toMatchObject({ code: 1 })

    const rename = await call(server, 'POST', '/v1/table/lab%24runs/rename', json({ id: ['lab', 'runs'], new_table_name: 'runs2' }))
    expect(rename.status).toBe(200)
    expect(await rename.json()).toEqual({})
    expect(await (await call(server, 'GET', '/v1/table/lab%24runs2/count_rows')).text()).toBe('7')
    expect((await call(server, 'GET', '/v1/table/lab%24runs/count_rows')).status).toBe(404)
    // Into another namespace and back; onto a taken name (a table, a namespace) is 409 and changes nothing.
    const moved = await call(server, 'POST', '/v1/table/lab%24runs2/rename', json({ new_table_name: 'top', new_namespace_id: [] }))
    expect(moved.status).toBe(200)
    expect(await (await call(server, 'GET', '/v1/table/top/count_rows')).text()).toBe('7')
    const onNamespace = await call(server, 'POST', '/v1/table/top/rename', json({ new_table_name: 'lab' }))
    expect(onNamespace.status).toBe(409)
    // Code 2: what holds the name is a namespace (the same answer on every write path).
    expect(await onNamespace.json()).toMatchObject({ code: 2 })
    expect((await call(server, 'POST', '/v1/table/top/rename', json({ new_table_name: 'runs', new_namespace_id: ['lab'] }))).status).toBe(200)

    const notEmpty = await call(server, 'POST', '/v1/namespace/lab/drop', json({ id: ['lab'] }))
    expect(await notEmpty.json()).toMatchObject({ code: 3 })
    const drop = await call(server, 'POST', '/v1/table/lab%24runs/drop', json({ id: ['lab', 'runs'] }))
    expect(drop.status).toBe(200)
    expect(await drop.json()).toMatchObject({ id: ['lab', 'runs'] })
    expect((await call(server, 'POST', '/v1/namespace/lab/drop', json({ id: ['lab'], behavior: 'Restrict' }))).status).toBe(200)
    expect((await call(server, 'POST', '/v1/namespace/lab/drop', json({ mode: 'Skip' }))).status).toBe(200)
  })

  it('trims trailing slashes and decodes + as a space before percent-decoding', async () => {
    expect((await call(server, 'GET', '/v1/namespace/%24/list/')).status).toBe(200)
    expect((await call(server, 'GET', '/v1/tables/')).status).toBe(200)
    const plus = await call(server, 'POST', '/v1/namespace/a+b/create', json({}))
    expect(plus.status).toBe(400)
    expect((await plus.json()).error).toMatch(/whitespace/)
    const encodedPlus = await call(server, 'POST', '/v1/namespace/a%2Bb/create', json({}))
    expect((await encodedPlus.json()).error).toMatch(/"\+"/)
  })

  it('refuses invalid ids with 400 code 13 and writes nothing', async () => {
    const before = readdirSync(server.root).sort()
    const bad = ['..', '%2E%2E', 'a%2Fb', 'a%24%24b', '%24a', 'x'.repeat(10_000), '.', 'a%24..', 'a%00b']
    for (const id of bad) {
      for (const [method, path, body] of [
        ['POST', `/v1/namespace/${id}/create`, json({})],
        ['POST', `/v1/table/${id}/describe`, json({})],
        ['POST', `/v1/table/${id}/declare`, json({})],
        ['POST', `/v1/table/${id}/create`, { body: arrowStream(), type: STREAM }],
      ] as const) {
        const r = await rawCall(server, method, path, body as { body?: string; type?: string })
        expect(r.status, `${method} ${path.slice(0, 60)}`).toBe(400)
        expect(r.json()).toMatchObject({ code: 13 })
      }
    }
    const mismatch = await call(server, 'POST', '/v1/namespace/ok/create', json({ id: ['other'] }))
    expect(mismatch.status).toBe(400)
    expect(await mismatch.json()).toMatchObject({ code: 13 })
    expect(readdirSync(server.root).sort()).toEqual(before)
  })

  it('refuses truncated or malformed Arrow bodies with 400, and creates nothing', async () => {
    const full = arrowStream(sampleTable(50))
    for (const body of [full.subarray(0, full.byteLength - 8), full.subarray(0, Math.floor(full.byteLength / 2)), new TextEncoder().encode('not arrow at all')]) {
      for (const path of ['/v1/tables/broken', '/v1/table/broken/create']) {
        const r = await call(server, 'POST', path, { body, type: STREAM })
        expect(r.status).toBe(400)
        expect(await r.json()).toMatchObject({ code: 13 })
      }
    }
    const empty = await call(server, 'POST', '/v1/tables/broken', { type: STREAM })
    expect(empty.status).toBe(400)
    expect((await (await call(server, 'GET', '/v1/tables')).json()).tables).not.toContain('broken')
    expect(existsSync(join(server.root, 'broken.lance'))).toBe(false)
  })
})

describe('authentication on every route', () => {
  let server: Server
  beforeAll(async () => {
    server = await serveTemp({ apiKeys: [KEY, 'second-key-abcdef'] })
    await call(server, 'POST', '/v1/tables/t', { body: arrowStream(), type: STREAM })
  })
  afterAll(async () => {
    await server?.close()
  })

  const routes: Array<[string, string, { body?: Body; type?: string }]> = [
    ['GET', '/v1/tables', {}],
    ['POST', '/v1/tables/u', { body: arrowStream(), type: STREAM }],
    ['GET', '/v1/table', {}],
    ['GET', '/v1/namespace/%24/list', {}],
    ['POST', '/v1/namespace/n/create', json({})],
    ['POST', '/v1/namespace/n/describe', json({})],
    ['POST', '/v1/namespace/n/exists', json({})],
    ['GET', '/v1/namespace/n/table/list', {}],
    ['POST', '/v1/namespace/n/drop', json({})],
    ['POST', '/v1/table/t/describe', json({})],
    ['POST', '/v1/table/v/declare', json({})],
    ['POST', '/v1/table/w/create', { body: arrowStream(), type: STREAM }],
    ['POST', '/v1/table/t/insert', { body: arrowStream(), type: STREAM }],
    ['POST', '/v1/table/t/query', json({ k: 1, vector: {} })],
    ['GET', '/v1/table/t/count_rows', {}],
    ['POST', '/v1/table/t/count_rows', json({})],
    ['POST', '/v1/table/t/exists', json({})],
    ['POST', '/v1/table/t/restore', json({ version: 1 })],
    ['POST', '/v1/table/t/rename', json({ new_table_name: 'x' })],
    ['POST', '/v1/table/u/drop', json({})],
    ['GET', '/v1/no/such/route', {}],
  ]

  it('answers 401 code 16 without a key, with a wrong key, and with a wrong bearer token — revealing nothing', async () => {
    for (const [method, path, init] of routes) {
      for (const headers of <Array<Record<string, string>>>[{}, { 'x-api-key': 'wrong' }, { authorization: 'Bearer wrong' }, { 'x-api-key': `${KEY}x` }, { authorization: KEY }]) {
        const r = await call(server, method, path, { ...init, key: null, headers })
        expect(r.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401)
        expect(await r.json()).toEqual({ error: 'Missing or invalid API key', code: 16 })
      }
    }
    expect((await (await call(server, 'GET', '/v1/tables')).json()).tables).toEqual(['t']) // nothing was written
  })

  it('works with the right key, as x-api-key or as a bearer token, for any of the keys', async () => {
    for (const [method, path, init] of routes) {
      const r = await call(server, method, path, { ...init, key: null, headers: { authorization: `Bearer ${KEY}` } })
      expect(r.status, `${method} ${path}`).not.toBe(401)
      if (path !== '/v1/no/such/route') expect(r.status, `${method} ${path}: ${await r.clone().text()}`).toBeLessThan(300)
      const text = await r.text()
      if (path.endsWith('/exists')) expect(text, `${method} ${path} answers no content`).toBe('')
      else if (!path.endsWith('/query')) expect(() => JSON.parse(text), `${method} ${path} replies JSON`).not.toThrow()
    }
    expect((await call(server, 'GET', '/v1/tables', { key: 'second-key-abcdef' })).status).toBe(200)
  })
})

describe('server limits, databases and shutdown', () => {
  it('answers 413 for a body over the limit, and creates nothing', async () => {
    const server = await serveTemp({ bodyLimit: 4096 })
    try {
      const r = await call(server, 'POST', '/v1/tables/big', { body: arrowStream(sampleTable(2000)), type: STREAM })
      expect(r.status).toBe(413)
      expect(await r.json()).toMatchObject({ code: 13 })
      expect((await (await call(server, 'GET', '/v1/tables')).json()).tables).toEqual([])
    } finally {
      await server.close()
    }
  })

  it('drops a request whose body never finishes arriving (request timeout), and creates nothing', async () => {
    const server = await serveTemp({ requestTimeoutMs: 300 })
    try {
      const url = new URL(server.url)
      const closed = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(url.port), url.hostname, () => {
          socket.write(`POST /v1/tables/slow HTTP/1.1\r\nhost: x\r\nx-api-key: ${KEY}\r\ncontent-type: ${STREAM}\r\ncontent-length: 100000\r\n\r\npartial`)
        })
        let reply = ''
        socket.on('data', (d: Buffer) => (reply += d.toString()))
        socket.on('close', () => resolve(reply))
        socket.on('error', () => resolve(reply))
      })
      expect(closed === '' || /^HTTP\/1\.1 408/.test(closed)).toBe(true)
      expect((await (await call(server, 'GET', '/v1/tables')).json()).tables).toEqual([])
    } finally {
      await server.close()
    }
  })

  it("keeps an idle connection past Node's 5 s, and says how long: lancedb's client (hyper) keeps its own for 90 s", async () => {
    // A server that closes first races a client sending on that connection (run 40: lancedb failed with
    // "IncompleteMessage"); it must outlast the client's pool, so the client always closes first.
    const server = await serveTemp()
    const url = new URL(server.url)
    const socket = net.connect(Number(url.port), url.hostname)
    try {
      let received = ''
      socket.on('data', (d: Buffer) => (received += d.toString('latin1')))
      let closed = false
      socket.on('close', () => (closed = true))
      const ask = async () => {
        received = ''
        socket.write(`GET /v1/tables HTTP/1.1\r\nhost: ${url.host}\r\nx-api-key: ${KEY}\r\n\r\n`)
        await until(() => /\r\n\r\n\{"tables":\[\]\}$/.test(received) || closed)
        return received
      }
      const first = await ask()
      expect(first).toMatch(/^HTTP\/1\.1 200/)
      const hint = Number(/^keep-alive: timeout=(\d+)/im.exec(first)?.[1])
      expect(hint).toBeGreaterThan(90)
      await new Promise((resolve) => setTimeout(resolve, 5_500))
      expect(closed).toBe(false)
      expect(await ask()).toMatch(/^HTTP\/1\.1 200/)
    } finally {
      socket.destroy()
      await server.close()
    }
  })

  it('selects the catalog by x-service-database', async () => {
    const a = await tempDir()
    const b = await tempDir()
    const server = await startServer({ databases: { alpha: a.dir, beta: b.dir }, apiKeys: [KEY] })
    try {
      const made = await call(server, 'POST', '/v1/tables/only_a', { body: arrowStream(), type: STREAM, headers: { 'x-service-database': 'alpha' } })
      expect(made.status).toBe(200)
      expect((await (await call(server, 'GET', '/v1/tables', { headers: { 'x-service-database': 'alpha' } })).json()).tables).toEqual(['only_a'])
      expect((await (await call(server, 'GET', '/v1/tables', { headers: { 'x-service-database': 'beta' } })).json()).tables).toEqual([])
      const unknown = await call(server, 'GET', '/v1/tables', { headers: { 'x-service-database': 'gamma' } })
      expect(unknown.status).toBe(404)
      expect(await unknown.json()).toMatchObject({ code: 1 })
      const none = await call(server, 'GET', '/v1/tables')
      expect(await none.json()).toMatchObject({ code: 13 })
    } finally {
      await server.close()
      await a.cleanup()
      await b.cleanup()
    }
  })

  it('finishes an in-flight write on shutdown: the table is whole, never half-written', async () => {
    const { dir, cleanup } = await tempDir()
    const server = await startServer({ root: dir, apiKeys: [KEY] })
    const url = new URL(server.url)
    const body = arrowStream(sampleTable(100_000))
    let sent!: () => void
    const flushed = new Promise<void>((resolve) => (sent = resolve))
    const pending = new Promise<number | 'failed'>((resolve) => {
      const req = http.request(
        { host: url.hostname, port: url.port, method: 'POST', path: '/v1/tables/inflight', headers: { 'x-api-key': KEY, 'content-type': STREAM, 'content-length': body.byteLength } },
        (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode ?? 0))
        },
      )
      req.on('error', () => resolve('failed'))
      req.on('finish', sent)
      req.end(body)
    })
    // Close once the server is writing (the table's directory appears; its data is committed last).
    await flushed
    while (!existsSync(join(dir, 'inflight.lance'))) await new Promise((resolve) => setImmediate(resolve))
    await server.close()
    const status = await pending
    const client = await connectNamespace('dir', { root: dir })
    try {
      const tables = (await client.listTables([])).items
      expect(status).toBe(200)
      expect(tables).toEqual(['inflight'])
      expect((await client.describeTable({ namespace: [], name: 'inflight' })).rowCount).toBe(100_000)
    } finally {
      await client.close()
      await cleanup()
    }
  })

  it('runs from the command line: prints one "listening on" line and stops on SIGTERM', async () => {
    const { dir, cleanup } = await tempDir()
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', '--root', dir, '--port', '0', '--api-key', KEY], {
      cwd: join(__dirname, '../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CATALOG_API_KEY: 'env-key-one,env-key-two' },
    })
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString()
          if (out.includes('\n')) resolve(out.split('\n')[0]!)
        })
        child.once('exit', (code) => reject(new Error(`exited ${code}`)))
      })
      expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/)
      const url = line.replace('listening on ', '')
      for (const key of [KEY, 'env-key-one', 'env-key-two']) expect((await fetch(`${url}/v1/tables`, { headers: { 'x-api-key': key } })).status).toBe(200)
      expect((await fetch(`${url}/v1/tables`, { headers: { 'x-api-key': 'env-key-one,env-key-two' } })).status).toBe(401)
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      await cleanup()
    }
  })

  it('refuses to start without an API key', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts', '--root', '/tmp', '--port', '0'], {
      cwd: join(__dirname, '../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CATALOG_API_KEY: '' },
    })
    let err = ''
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(2)
    expect(err).toMatch(/API key/)
  })
})
