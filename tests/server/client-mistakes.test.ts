/**
 * Every client mistake is a 4xx whose message names the real problem: for each route, wrong-typed fields, bodies of
 * the wrong JSON kind, unparsable SQL and JSON, and missing names, against a real table on a served directory
 * catalog. Never a 5xx, never "Unexpected error from Lance".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { arrowStream, KEY, sampleTable, serveTemp } from './support'

type Server = Awaited<ReturnType<typeof serveTemp>>

interface Mistake {
  /** `METHOD /path?query` */
  route: string
  /** A JSON value (sent as JSON), or raw text (sent as `application/json` as is). */
  body?: unknown
  raw?: string
  /** The words the error must contain. */
  says: RegExp
  status?: number
}

const T = '/v1/table/t'
const NOT_OBJECT = /must be a JSON object/

/** The wrong kinds of JSON body each JSON route must refuse. */
const notObjects = (route: string): Mistake[] => [
  { route, raw: '[]', says: NOT_OBJECT },
  { route, raw: '"s"', says: NOT_OBJECT },
  { route, raw: '[1,2]', says: NOT_OBJECT },
  { route, raw: '{"a":', says: /not valid JSON/ },
]

const mistakes: Mistake[] = [
  // namespaces
  ...notObjects('POST /v1/namespace/ns/create'),
  { route: 'POST /v1/namespace/ns2/create', body: { mode: 5 }, says: /mode/ },
  { route: 'POST /v1/namespace/ns2/create', body: { mode: 'Sometimes' }, says: /Unknown mode "Sometimes"/ },
  { route: 'POST /v1/namespace/ns2/create', body: { properties: { a: 1 } }, says: /properties/ },
  ...notObjects('POST /v1/namespace/ns/describe'),
  ...notObjects('POST /v1/namespace/ns/exists'),
  ...notObjects('POST /v1/namespace/ns/drop'),
  { route: 'POST /v1/namespace/ns/drop', body: { behavior: 3 }, says: /behavior/ },
  { route: 'POST /v1/namespace/ns/drop', body: { mode: 'Never' }, says: /Unknown mode "Never"/ },
  { route: 'GET /v1/namespace/%24/list?limit=0', says: /limit/ },
  { route: 'GET /v1/namespace/%24/table/list?include_declared=perhaps', says: /include_declared/ },
  { route: 'GET /v1/table?limit=-1', says: /limit/ },
  // ids in the path
  { route: 'POST /v1/table/%ZZ/describe', body: {}, says: /percent-encoding/ },
  { route: 'POST /v1/table/ns%24%24/describe', body: {}, says: /name|id/i },
  // table metadata
  ...notObjects(`POST ${T}/describe`),
  ...notObjects(`POST ${T}/exists`),
  ...notObjects(`POST ${T}/declare`),
  ...notObjects(`POST ${T}/drop`),
  { route: `POST ${T}/describe`, body: { version: 'latest' }, says: /version/ },
  { route: `POST ${T}/exists`, body: { version: 1.5 }, says: /version/ },
  { route: `POST ${T}/rename`, body: {}, says: /new_table_name/ },
  { route: `POST ${T}/rename`, body: { new_table_name: 5 }, says: /new_table_name/ },
  { route: `POST ${T}/rename`, body: { new_table_name: 'u', new_namespace_id: 'ns' }, says: /new_namespace_id/ },
  { route: `POST ${T}/restore`, body: {}, says: /version/ },
  { route: `POST ${T}/restore`, body: { version: '1' }, says: /version/ },
  { route: 'POST /v1/table/r/register', body: {}, says: /location is required/ },
  { route: `POST ${T}/update_field_metadata`, body: {}, says: /updates/ },
  { route: `POST ${T}/update_field_metadata`, body: { updates: [{ path: 'id', metadata: { a: 1 } }] }, says: /metadata/ },
  { route: `POST ${T}/update_field_metadata`, body: { updates: [{ metadata: {} }] }, says: /path/ },
  // data
  { route: `POST ${T}/create?mode=sideways`, says: /create mode "sideways"/ },
  { route: `POST ${T}/insert?mode=sideways`, says: /insert mode "sideways"/ },
  { route: `POST ${T}/merge_insert`, says: /on \(the key columns\) is required/ },
  ...notObjects(`POST ${T}/query`),
  { route: `POST ${T}/query`, body: {}, says: /k/ },
  { route: `POST ${T}/query`, body: { k: '5' }, says: /k/ },
  { route: `POST ${T}/query`, body: { k: 5, filter: ['id > 1'] }, says: /filter/ },
  { route: `POST ${T}/query`, body: { k: 5, filter: 'id >>= 1' }, says: /`>>` is not an operator of filters|id >>= 1|parse/ },
  { route: `POST ${T}/query`, body: { k: 5, columns: { column_names: ['nope'] } }, says: /nope/ },
  { route: `POST ${T}/count_rows`, body: { predicate: 5 }, says: /predicate/ },
  { route: `POST ${T}/count_rows`, body: { predicate: 'id >>= 1' }, says: /`>>` is not an operator of filters|id >>= 1|parse/ },
  { route: `POST ${T}/explain_plan`, body: {}, says: /query/ },
  { route: `POST ${T}/delete`, body: {}, says: /predicate is required/ },
  { route: `POST ${T}/delete`, body: { predicate: 5 }, says: /predicate/ },
  { route: `POST ${T}/delete`, body: { predicate: 'id >>= 1' }, says: /SQL expression "id >>= 1" cannot be parsed/ },
  { route: `POST ${T}/update`, body: {}, says: /updates must be/ },
  { route: `POST ${T}/update`, body: { updates: [['id', '1']], predicate: 5 }, says: /predicate/ },
  { route: `POST ${T}/update`, body: { updates: [['id', '1']], predicate: 'id >>= 1' }, says: /SQL expression "id >>= 1" cannot be parsed/ },
  { route: `POST ${T}/update`, body: { updates: [['nope', '1']] }, says: /Column "nope" does not exist/ },
  // schema
  { route: `POST ${T}/add_columns`, body: {}, says: /new_columns/ },
  { route: `POST ${T}/add_columns`, body: { new_columns: [{ expression: '1' }] }, says: /name/ },
  { route: `POST ${T}/add_columns`, body: { new_columns: [{ name: 'id', expression: 'id * 2' }] }, says: /Column "id" already exists/ },
  { route: `POST ${T}/alter_columns`, body: {}, says: /alterations/ },
  { route: `POST ${T}/alter_columns`, body: { alterations: [{ rename: 'x' }] }, says: /path/ },
  { route: `POST ${T}/alter_columns`, body: { alterations: [{ path: 'ghost', rename: 'x' }] }, says: /ghost/ },
  { route: `POST ${T}/drop_columns`, body: { columns: 'id' }, says: /columns/ },
  { route: `POST ${T}/drop_columns`, body: { columns: ['ghost'] }, says: /ghost/ },
  // indexes, tags, branches
  { route: `POST ${T}/create_index`, body: { column: 'id' }, says: /index_type/ },
  { route: `POST ${T}/create_index`, body: { index_type: 'BTREE' }, says: /column/ },
  { route: `POST ${T}/create_index`, body: { column: 'label', index_type: 'IVF_PQ' }, says: /IVF.?PQ index cannot be built on column "label": its type is/ },
  { route: `POST ${T}/create_index`, body: { column: 'ghost', index_type: 'BTREE' }, says: /ghost/ },
  { route: `POST ${T}/tags/create`, body: {}, says: /tag is required/ },
  { route: `POST ${T}/tags/create`, body: { tag: 'a', version: 'x' }, says: /version/ },
  { route: `POST ${T}/tags/version`, body: {}, says: /tag is required/ },
  { route: `POST ${T}/tags/delete`, body: { tag: 7 }, says: /tag is required/ },
  { route: `POST ${T}/branches/create`, body: {}, says: /name is required/ },
  { route: `POST ${T}/branches/create`, body: { name: 'b', from_version: 'x' }, says: /from_version/ },
  { route: `POST ${T}/branches/delete`, body: {}, says: /name is required/ },
  { route: `POST ${T}/version/describe`, body: { version: 'x' }, says: /version/ },
]

describe('client mistakes are 4xx with the right words, on every route', () => {
  let server: Server
  beforeAll(async () => {
    server = await serveTemp()
    const r = await fetch(`${server.url}/v1/table/t/create`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/vnd.apache.arrow.stream' }, body: Buffer.from(arrowStream(sampleTable(5))) })
    expect(r.status).toBe(200)
    expect((await fetch(`${server.url}/v1/namespace/ns/create`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: '{}' })).status).toBe(200)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('answers each mistake with a 4xx naming the problem', async () => {
    const wrong: string[] = []
    for (const m of mistakes) {
      const [method, path] = m.route.split(' ') as [string, string]
      const body = m.raw ?? (m.body === undefined ? (method === 'POST' ? '{}' : undefined) : JSON.stringify(m.body))
      const r = await fetch(`${server.url}${path}`, { method, headers: { 'x-api-key': KEY, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, body })
      const text = await r.text()
      const error = (() => {
        try {
          return String((JSON.parse(text) as { error?: unknown }).error)
        } catch {
          return text
        }
      })()
      const label = `${m.route} ${m.raw ?? JSON.stringify(m.body ?? null)}`
      if (r.status < 400 || r.status >= 500 || (m.status !== undefined && r.status !== m.status) || !m.says.test(error) || /Unexpected error/.test(error)) wrong.push(`${label} → ${r.status} ${error}`)
    }
    expect(wrong).toEqual([])
  })

  it('answers a 2 MB JSON body with 413 quoting the 1 MiB JSON limit (the Arrow routes take more)', async () => {
    const big = JSON.stringify({ filler: 'x'.repeat(2 * 1024 * 1024) })
    for (const path of [`${T}/describe`, `${T}/query`, '/v1/namespace/ns/create']) {
      const r = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: big })
      expect(r.status, path).toBe(413)
      expect(((await r.json()) as { error: string }).error, path).toMatch(/JSON bodies up to 1 MiB/)
    }
  })
})
