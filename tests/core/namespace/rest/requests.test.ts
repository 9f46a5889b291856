import * as arrow from 'apache-arrow'
import { afterEach, describe, expect, it } from 'vitest'
import { AppError } from '../../../../src/contract'
import { listAll } from '../../../../src/core/namespace/client'
import { connectNamespace } from '../../../../src/core/namespace/connect'
import { encodeId, RestNamespaceClient } from '../../../../src/core/namespace/rest'
import { captureServer, type Captured, type Scripted } from './capture'

const table = () => arrow.tableFromArrays({ id: BigInt64Array.from([1n, 2n]), name: ['a', 'b'] })
const jsonBody = (r: Captured) => JSON.parse(r.body.toString('utf8'))
const schemaJson = { fields: [{ name: 'id', nullable: true, type: { type: 'int64' } }, { name: 'name', nullable: true, type: { type: 'utf8' } }] }

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

async function setup(answer?: (req: Captured, i: number) => Scripted, extra: Record<string, string> = {}) {
  const server = await captureServer(answer)
  close = server.close
  const client = (await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': 'k-123456', 'headers.x-service-database': 'db1', ...extra })) as RestNamespaceClient
  return { server, client, requests: server.requests }
}

describe('ids on the wire', () => {
  it('joins with $ and form-encodes like the Rust client; the root is the delimiter itself', () => {
    expect(encodeId([])).toBe('%24')
    expect(encodeId(['sales', 'eu x/y'])).toBe('sales%24eu+x%2Fy')
    expect(encodeId(['a.b-c_d*'])).toBe('a.b-c_d*')
    expect(encodeId(["it's(~)"])).toBe('it%27s%28%7E%29')
  })
})

describe('the exact requests of RestNamespaceClient (captured on a loopback server)', () => {
  it('lists namespaces and tables with GET, ?delimiter=%24, paging params and the configured headers', async () => {
    const { client, requests } = await setup((req) => (req.path.endsWith('/table/list') ? { body: { tables: ['t1'] } } : { body: { namespaces: ['a', 'b'], page_token: 'b' } }))
    expect(await client.listNamespaces([], { limit: 2 })).toEqual({ items: ['a', 'b'], pageToken: 'b' })
    await client.listNamespaces(['sales', 'eu'], { pageToken: 'x y' })
    expect(await client.listTables(['sales'])).toEqual({ items: ['t1'] })
    expect(requests.map((r) => [r.method, r.path, r.query])).toEqual([
      ['GET', '/v1/namespace/%24/list', 'delimiter=%24&limit=2'],
      ['GET', '/v1/namespace/sales%24eu/list', 'delimiter=%24&page_token=x%20y'],
      ['GET', '/v1/namespace/sales/table/list', 'delimiter=%24'],
    ])
    for (const r of requests) {
      expect(r.headers['x-api-key']).toBe('k-123456')
      expect(r.headers['x-service-database']).toBe('db1')
      expect(r.body.byteLength).toBe(0)
      expect(r.headers['content-type']).toBeUndefined()
    }
  })

  it('sends namespace writes as JSON with the id repeated and optional fields left out', async () => {
    const { client, requests } = await setup()
    await client.createNamespace(['sales'])
    await client.createNamespace(['sales', 'eu'], { mode: 'exist_ok', properties: { owner: 'ana' } })
    await client.describeNamespace(['sales'])
    await client.dropNamespace(['sales'])
    await client.dropNamespace(['sales'], { behavior: 'cascade' })
    expect(requests.map((r) => [r.method, r.path, r.headers['content-type'], jsonBody(r)])).toEqual([
      ['POST', '/v1/namespace/sales/create', 'application/json', { id: ['sales'] }],
      ['POST', '/v1/namespace/sales%24eu/create', 'application/json', { id: ['sales', 'eu'], mode: 'ExistOk', properties: { owner: 'ana' } }],
      ['POST', '/v1/namespace/sales/describe', 'application/json', { id: ['sales'] }],
      ['POST', '/v1/namespace/sales/drop', 'application/json', { id: ['sales'] }],
      ['POST', '/v1/namespace/sales/drop', 'application/json', { id: ['sales'], behavior: 'Cascade' }],
    ])
  })

  it('describes a table with load_detailed_metadata and count_rows (GET, no body)', async () => {
    const { client, requests } = await setup((req) =>
      req.path.endsWith('/count_rows') ? { body: '42', headers: { 'content-type': 'application/json' } } : { body: { location: '/x', version: 3, schema: schemaJson } },
    )
    const d = await client.describeTable({ namespace: ['sales'], name: 't 1'.replace(' ', '_') })
    expect(d).toMatchObject({ name: 't_1', namespace: ['sales'], rowCount: 42, version: 3 })
    expect(d.fields.map((f) => [f.name, f.type])).toEqual([
      ['id', 'Int64'],
      ['name', 'Utf8'],
    ])
    const byPath = Object.fromEntries(requests.map((r) => [r.path, r]))
    const describe = byPath['/v1/table/sales%24t_1/describe']!
    expect(describe.method).toBe('POST')
    expect(describe.query).toBe('delimiter=%24&load_detailed_metadata=true')
    expect(jsonBody(describe)).toEqual({ id: ['sales', 't_1'] })
    const count = byPath['/v1/table/sales%24t_1/count_rows']!
    expect([count.method, count.query, count.body.byteLength]).toEqual(['GET', 'delimiter=%24', 0])
  })

  it('skips count_rows once the server has shown it puts num_rows into describe (our server does)', async () => {
    const { client, requests } = await setup((req) => (req.path.endsWith('/count_rows') ? { body: '7' } : { body: { location: '/x', version: 1, schema: schemaJson, num_rows: 7 } }))
    const id = { namespace: [], name: 't' }
    expect((await client.describeTable(id)).rowCount).toBe(7)
    const first = requests.length
    expect((await client.describeTable(id)).rowCount).toBe(7)
    expect(requests.slice(first).map((r) => r.path)).toEqual(['/v1/table/t/describe'])
  })

  it('reads a page with POST query (k = limit, empty vector) and turns the Arrow file reply into stream bytes', async () => {
    const file = arrow.tableToIPC(table(), 'file')
    const { client, requests } = await setup(() => ({ body: file, headers: { 'content-type': 'application/vnd.apache.arrow.file' } }))
    const bytes = await client.readPage({ namespace: [], name: 't' }, { offset: 20, limit: 10, columns: ['id'] })
    expect(new TextDecoder().decode(bytes.subarray(0, 6))).not.toBe('ARROW1') // stream framing, not file
    expect(arrow.RecordBatchReader.from(bytes).isStream()).toBe(true)
    expect(arrow.tableFromIPC(bytes).numRows).toBe(2)
    expect(requests[0]!.path).toBe('/v1/table/t/query')
    expect(requests[0]!.headers.accept).toMatch(/^application\/vnd\.apache\.arrow\.stream, application\/vnd\.apache\.arrow\.file;q=0\.9/)
    expect(jsonBody(requests[0]!)).toEqual({ id: ['t'], k: 10, vector: {}, offset: 20, columns: { column_names: ['id'] } })
    await client.readPage({ namespace: [], name: 't' }, { offset: 0, limit: 5 })
    expect(jsonBody(requests[1]!)).toEqual({ id: ['t'], k: 5, vector: {} })
  })

  it('creates and appends with Arrow IPC stream bodies and ?mode=', async () => {
    const { client, requests } = await setup((req) =>
      req.path.endsWith('/count_rows') ? { body: '2' } : req.path.endsWith('/insert') ? { body: { version: 2 } } : { body: { location: '/x', version: 1, schema: schemaJson } },
    )
    await client.createTable({ namespace: ['ns'], name: 't' }, table(), { mode: 'overwrite' })
    expect(await client.appendRows({ namespace: ['ns'], name: 't' }, table())).toBe(2)
    await client.createEmptyTable({ namespace: [], name: 'e' }, table().schema)
    const create = requests.find((r) => r.path === '/v1/table/ns%24t/create')!
    expect(create.query).toBe('delimiter=%24&mode=overwrite')
    expect(create.headers['content-type']).toBe('application/vnd.apache.arrow.stream')
    expect(arrow.tableFromIPC(create.body).numRows).toBe(2)
    const insert = requests.find((r) => r.path === '/v1/table/ns%24t/insert')!
    expect(insert.query).toBe('delimiter=%24&mode=append')
    expect(insert.headers['content-type']).toBe('application/vnd.apache.arrow.stream')
    // A new root table goes through the enterprise route POST /v1/tables/{table_name}.
    const empty = requests.find((r) => r.path === '/v1/tables/e')!
    expect(empty.method).toBe('POST')
    expect(empty.headers['content-type']).toBe('application/vnd.apache.arrow.stream')
    const emptyTable = arrow.tableFromIPC(empty.body)
    expect([emptyTable.numRows, emptyTable.schema.fields.map((f) => f.name)]).toEqual([0, ['id', 'name']])
  })

  it('falls back to the namespace create route when the server has no POST /v1/tables/{name}', async () => {
    const { client, requests } = await setup((req) =>
      req.path.startsWith('/v1/tables/')
        ? { status: 404, body: 'no such route' }
        : req.path.endsWith('/count_rows')
          ? { body: '2' }
          : { body: { location: '/x', version: 1, schema: schemaJson } },
    )
    await client.createTable({ namespace: [], name: 'r1' }, table())
    await client.createTable({ namespace: [], name: 'r2' }, table())
    const creates = requests.filter((r) => r.path.startsWith('/v1/tables/') || r.path.endsWith('/create'))
    // Once the route is known missing, the client goes straight to the namespace route.
    expect(creates.map((r) => r.path)).toEqual(['/v1/tables/r1', '/v1/table/r1/create', '/v1/table/r2/create'])
    expect(creates[1]!.query).toBe('delimiter=%24&mode=create')
  })

  it('drops, renames, restores and checks existence with the documented bodies', async () => {
    const { client, requests } = await setup((req) => (req.path.includes('missing') ? { status: 404, body: { error: 'nope', code: 4 } } : { body: {} }))
    await client.dropTable({ namespace: ['a'], name: 't' })
    await client.renameTable({ namespace: ['a'], name: 't' }, 't2', { newNamespace: ['b'] })
    await client.renameTable({ namespace: ['a'], name: 't' }, 't3')
    await client.restoreVersion({ namespace: [], name: 't' }, 4)
    expect(await client.tableExists({ namespace: [], name: 't' })).toBe(true)
    expect(await client.tableExists({ namespace: [], name: 'missing' })).toBe(false)
    expect(await client.namespaceExists(['a'])).toBe(true)
    expect(requests.map((r) => [r.path, jsonBody(r)])).toEqual([
      ['/v1/table/a%24t/drop', { id: ['a', 't'] }],
      ['/v1/table/a%24t/rename', { id: ['a', 't'], new_table_name: 't2', new_namespace_id: ['b'] }],
      ['/v1/table/a%24t/rename', { id: ['a', 't'], new_table_name: 't3' }],
      ['/v1/table/t/restore', { id: ['t'], version: 4 }],
      ['/v1/table/t/exists', { id: ['t'] }],
      ['/v1/table/missing/exists', { id: ['missing'] }],
      ['/v1/namespace/a/exists', { id: ['a'] }],
    ])
  })

  it('uses the enterprise routes GET /v1/tables and POST /v1/tables/{name} (Arrow stream)', async () => {
    const { client, requests } = await setup((req) => (req.method === 'GET' ? { body: { tables: ['words'], page_token: null } } : { body: {} }))
    expect(await client.listAllTables()).toEqual({ items: ['words'] })
    await client.createTableFromStream('words', arrow.tableToIPC(table(), 'stream'))
    expect(requests.map((r) => [r.method, r.path, r.query, r.headers['content-type']])).toEqual([
      ['GET', '/v1/tables', '', undefined],
      ['POST', '/v1/tables/words', '', 'application/vnd.apache.arrow.stream'],
    ])
    expect(arrow.tableFromIPC(requests[1]!.body).numRows).toBe(2)
  })

  it('keeps a path prefix of the endpoint and sends bearer tokens and extra headers verbatim', async () => {
    const server = await captureServer(() => ({ body: { tables: [] } }))
    close = server.close
    const client = await connectNamespace('rest', { uri: `${server.url}/base/`, 'headers.Authorization': 'Bearer tok-999999', 'header.X-Team': 'ml' })
    await client.listTables([])
    expect(server.requests[0]!.path).toBe('/base/v1/namespace/%24/table/list')
    expect(server.requests[0]!.headers.authorization).toBe('Bearer tok-999999')
    expect(server.requests[0]!.headers['x-team']).toBe('ml')
    expect(server.requests[0]!.headers['x-api-key']).toBeUndefined()
  })

  it('follows page_token to the end with listAll', async () => {
    const pages: Record<string, Scripted> = {
      '': { body: { tables: ['a', 'b'], page_token: 'b' } },
      b: { body: { tables: ['c', 'd'], page_token: 'd' } },
      d: { body: { tables: ['e'], page_token: '' } },
    }
    const { client, requests } = await setup((req) => pages[new URLSearchParams(req.query).get('page_token') ?? '']!)
    expect(await listAll((o) => client.listTables([], o))).toEqual(['a', 'b', 'c', 'd', 'e'])
    expect(requests).toHaveLength(3)
  })

  it('validates ids before sending anything', async () => {
    const { client, requests } = await setup()
    await expect(client.listTables(['a/b'])).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(client.describeTable({ namespace: [], name: '..' })).rejects.toMatchObject({ code: 'invalid_input' })
    expect(requests).toHaveLength(0)
  })

  it('refuses bad properties: no uri, credentials in the URL, header names with spaces', async () => {
    await expect(connectNamespace('rest', {})).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(connectNamespace('rest', { uri: 'http://user:pw@127.0.0.1:1' })).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(connectNamespace('rest', { uri: 'ftp://x' })).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(connectNamespace('rest', { uri: 'http://x', 'headers.bad name': 'v' })).rejects.toBeInstanceOf(AppError)
  })
})
