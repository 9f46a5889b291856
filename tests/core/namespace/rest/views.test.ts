import * as arrow from 'apache-arrow'
import { afterEach, describe, expect, it } from 'vitest'
import { connectNamespace } from '../../../../src/core/namespace/connect'
import { RestNamespaceClient } from '../../../../src/core/namespace/rest'
import { captureServer, type Captured, type Scripted } from './capture'
import { appError } from '../../../helpers/errors'

const file = () => arrow.tableToIPC(arrow.tableFromArrays({ id: BigInt64Array.from([1n, 2n]) }), 'file')
const jsonBody = (r: Captured) => JSON.parse(r.body.toString('utf8'))
const t = { namespace: ['ns'], name: 't' }

let close: (() => Promise<void>) | undefined
afterEach(async () => {
  await close?.()
  close = undefined
})

async function setup(answer: (req: Captured, i: number) => Scripted) {
  const server = await captureServer(answer)
  close = server.close
  const client = (await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': 'k-123456' })) as unknown as RestNamespaceClient
  expect(client).toBeInstanceOf(RestNamespaceClient)
  return { client, requests: server.requests }
}


describe('views on the REST wire (QueryTableRequest)', () => {
  it('sends filter, version, columns, offset, vector search and FTS as the contract spells them', async () => {
    const { client, requests } = await setup(() => ({ body: file(), headers: { 'content-type': 'application/vnd.apache.arrow.file' } }))
    await client.readPage(t, { offset: 5, limit: 10, view: { version: 3, filter: "a = 'x'", columns: ['id'] } })
    expect(jsonBody(requests[0]!)).toEqual({ id: ['ns', 't'], k: 10, vector: {}, version: 3, filter: "a = 'x'", columns: { column_names: ['id'] }, offset: 5 })
    await client.readPage(t, { offset: 2, limit: 10, view: { search: { kind: 'vector', column: 'v', vector: [1, 2], metric: 'cosine', k: 8, prefilter: false, nprobes: 4, refineFactor: 2 } } })
    // k = the rest of the k nearest after the offset.
    expect(jsonBody(requests[1]!)).toEqual({ id: ['ns', 't'], k: 6, vector: { single_vector: [1, 2] }, offset: 2, vector_column: 'v', distance_type: 'cosine', prefilter: false, nprobes: 4, refine_factor: 2 })
    await client.readPage(t, { offset: 0, limit: 10, view: { search: { kind: 'fts', query: 'zürich', columns: ['text'], k: 50 } } })
    expect(jsonBody(requests[2]!)).toEqual({ id: ['ns', 't'], k: 10, vector: {}, full_text_query: { string_query: { query: 'zürich', columns: ['text'] } } })
  })

  it('counts with predicate and version (POST count_rows), and search results by a query', async () => {
    const { client, requests } = await setup((req) => (req.path.endsWith('/count_rows') ? { body: '17' } : { body: file(), headers: { 'content-type': 'application/vnd.apache.arrow.file' } }))
    expect(await client.countRows(t, { view: { version: 4, filter: 'x > 1' } })).toBe(17)
    expect(requests[0]!.method).toBe('POST')
    expect(jsonBody(requests[0]!)).toEqual({ id: ['ns', 't'], predicate: 'x > 1', version: 4 })
    expect(await client.countRows(t, { view: { search: { kind: 'fts', query: 'q', k: 5 } } })).toBe(2)
    expect(requests[1]!.path).toBe('/v1/table/ns%24t/query')
  })

  it('a server that ignores our order_by makes sorting unsupported (with the reason), not plain paging', async () => {
    const { client } = await setup(() => ({ body: file(), headers: { 'content-type': 'application/vnd.apache.arrow.file' } }))
    const sorted = await appError(client.readPage(t, { offset: 0, limit: 10, view: { sort: [{ column: 'id', direction: 'desc' }] } }))
    expect(sorted.code).toBe('unsupported')
    expect(client.capabilities.get('table.sort')).toMatchObject({ supported: false, reason: expect.stringMatching(/no sort/) })
    expect(arrow.tableFromIPC(await client.readPage(t, { offset: 0, limit: 10 })).numRows).toBe(2)
  })

  it('a server that answers a filter "unsupported" disables filtering only, with its reason', async () => {
    const { client } = await setup((req) =>
      jsonBody(req).filter ? { status: 406, body: { error: 'filters are not supported here', code: 0 } } : { body: file(), headers: { 'content-type': 'application/vnd.apache.arrow.file' } },
    )
    const filtered = await appError(client.readPage(t, { offset: 0, limit: 10, view: { filter: 'id > 1' } }))
    expect(filtered.code).toBe('unsupported')
    expect(client.capabilities.get('table.filter')).toMatchObject({ supported: false, reason: 'filters are not supported here' })
    expect(client.capabilities.isSupported('table.query')).not.toBe(false)
    expect(arrow.tableFromIPC(await client.readPage(t, { offset: 0, limit: 10, view: {} })).numRows).toBe(2)
  })
})
