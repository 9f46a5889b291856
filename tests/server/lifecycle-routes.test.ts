import * as arrow from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lifecycleRows } from '../core/lifecycle/contract'
import { OpenApiResponses, specPath } from './openapi'
import { KEY, serveTemp } from './support'

const STREAM = 'application/vnd.apache.arrow.stream'
type Server = Awaited<ReturnType<typeof serveTemp>>

interface Case {
  /** The spec's path template. */
  template: string
  method: 'GET' | 'POST'
  path: string
  body?: unknown
  arrow?: arrow.Table
  query?: string
  status: number
  code?: number
  check?: (body: unknown) => void
}

/**
 * Every lifecycle route of our server on a real Lance table, each reply checked against the Lance namespace
 * OpenAPI document (read at test time, never copied into the repository), plus the error contract:
 * exact codes, and no server path in any reply.
 */
describe('server lifecycle routes', () => {
  let server: Server
  const spec = specPath()
  const responses = spec ? new OpenApiResponses(spec) : null

  const send = async (c: Case) => {
    const headers: Record<string, string> = { 'x-api-key': KEY }
    let body: string | Uint8Array | undefined
    if (c.arrow) {
      headers['content-type'] = STREAM
      body = arrow.tableToIPC(c.arrow, 'stream')
    } else if (c.method === 'POST') {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(c.body ?? {})
    }
    const r = await fetch(`${server.url}${c.path}${c.query ? `?${c.query}` : ''}`, { method: c.method, headers, body })
    const text = await r.text()
    return { status: r.status, text, json: text === '' ? undefined : (JSON.parse(text) as unknown) }
  }

  beforeAll(async () => {
    server = await serveTemp()
    const setup: Case[] = [
      { template: '/v1/namespace/{id}/create', method: 'POST', path: '/v1/namespace/life/create', status: 200 },
      { template: '/v1/table/{id}/create', method: 'POST', path: '/v1/table/life%24t/create', arrow: lifecycleRows(300), status: 200 },
      { template: '/v1/table/{id}/insert', method: 'POST', path: '/v1/table/life%24t/insert', arrow: lifecycleRows(10, 301), status: 200 },
      { template: '/v1/table/{id}/insert', method: 'POST', path: '/v1/table/life%24t/insert', arrow: lifecycleRows(10, 311), status: 200 },
    ]
    for (const c of setup) {
      const r = await send(c)
      expect(r.status).toBe(200)
      if (responses) setupProblems.push(...responses.check(c.template, c.method, c.status, r.json))
    }
  })
  const setupProblems: string[] = []
  afterAll(async () => {
    await server?.close()
  })

  const t = '/v1/table/life%24t'
  const cases: Case[] = [
    { template: '/v1/table/{id}/version/list', method: 'POST', path: `${t}/version/list`, status: 200, check: (b) => expect((b as { versions: { version: number }[] }).versions.map((v) => v.version)).toEqual([1, 2, 3]) },
    { template: '/v1/table/{id}/version/list', method: 'POST', path: `${t}/version/list`, query: 'descending=true', status: 200, check: (b) => expect((b as { versions: { version: number }[] }).versions[0]!.version).toBe(3) },
    { template: '/v1/table/{id}/version/describe', method: 'POST', path: `${t}/version/describe`, body: { version: 2 }, status: 200, check: (b) => expect(b).toMatchObject({ version: { version: 2, metadata: { total_rows: '310' } } }) },
    { template: '/v1/table/{id}/version/describe', method: 'POST', path: `${t}/version/describe`, body: { version: 42 }, status: 404, code: 11 },
    { template: '/v1/table/{id}/version/create', method: 'POST', path: `${t}/version/create`, body: { version: 9, manifest_path: 'x' }, status: 406, code: 0, check: (b) => expect((b as { error: string }).error).toMatch(/managed versioning.*lancedb 0\.31\.0 has no call/) },
    { template: '/v1/table/version/batch-create', method: 'POST', path: '/v1/table/version/batch-create', body: { entries: [{ id: ['life', 't'], version: 9, manifest_path: 'x' }] }, status: 406, code: 0 },
    { template: '/v1/table/{id}/version/delete', method: 'POST', path: `${t}/version/delete`, body: { ranges: [{ start_version: 1, end_version: 1 }] }, status: 406, code: 0, check: (b) => expect((b as { error: string }).error).toMatch(/delete chosen table versions/) },
    { template: '/v1/table/{id}/schema_metadata/update', method: 'POST', path: `${t}/schema_metadata/update`, body: { owner: 'ana' }, status: 406, code: 0, check: (b) => expect((b as { error: string }).error).toMatch(/schema-level metadata/) },
    { template: '/v1/table/{id}/update_field_metadata', method: 'POST', path: `${t}/update_field_metadata`, body: { updates: [{ path: 'label', metadata: { unit: 'none', note: 'x' } }] }, status: 200, check: (b) => expect(b).toMatchObject({ version: 4, fields: { label: { unit: 'none', note: 'x' } } }) },
    { template: '/v1/table/{id}/update_field_metadata', method: 'POST', path: `${t}/update_field_metadata`, body: { updates: [{ path: 'label', metadata: { note: null } }] }, status: 200, check: (b) => expect((b as { fields: Record<string, Record<string, string>> }).fields.label).toEqual({ unit: 'none' }) },
    { template: '/v1/table/{id}/update_field_metadata', method: 'POST', path: `${t}/update_field_metadata`, body: { updates: [{ path: 'label', metadata: { only: 'this' }, replace: true }] }, status: 200, check: (b) => expect((b as { fields: Record<string, Record<string, string>> }).fields.label).toEqual({ only: 'this' }) },
    { template: '/v1/table/{id}/update_field_metadata', method: 'POST', path: `${t}/update_field_metadata`, body: { updates: [{ path: 'ghost', metadata: { a: 'b' } }] }, status: 404, code: 12, check: (b) => expect((b as { error: string }).error).toMatch(/ghost/) },
    { template: '/v1/table/{id}/update_field_metadata', method: 'POST', path: `${t}/update_field_metadata`, body: { updates: [] }, status: 400, code: 13 },
    { template: '/v1/table/{id}/count_rows', method: 'POST', path: `${t}/count_rows`, body: { version: 1 }, status: 200, check: (b) => expect(b).toBe(300) },
    { template: '/v1/table/{id}/tags/create', method: 'POST', path: `${t}/tags/create`, body: { tag: 'first', version: 1 }, status: 200 },
    { template: '/v1/table/{id}/tags/create', method: 'POST', path: `${t}/tags/create`, body: { tag: 'first', version: 2 }, status: 409, code: 9 },
    { template: '/v1/table/{id}/tags/update', method: 'POST', path: `${t}/tags/update`, body: { tag: 'first', version: 2 }, status: 200 },
    { template: '/v1/table/{id}/tags/list', method: 'POST', path: `${t}/tags/list`, status: 200, check: (b) => expect(b).toEqual({ tags: { first: { version: 2, manifestSize: 0 } } }) },
    { template: '/v1/table/{id}/tags/version', method: 'POST', path: `${t}/tags/version`, body: { tag: 'first' }, status: 200, check: (b) => expect(b).toEqual({ version: 2 }) },
    { template: '/v1/table/{id}/tags/version', method: 'POST', path: `${t}/tags/version`, body: { tag: 'nope' }, status: 404, code: 8 },
    { template: '/v1/table/{id}/tags/delete', method: 'POST', path: `${t}/tags/delete`, body: { tag: 'first' }, status: 200 },
    { template: '/v1/table/{id}/tags/delete', method: 'POST', path: `${t}/tags/delete`, body: { tag: 'first' }, status: 404, code: 8 },
    { template: '/v1/table/{id}/branches/create', method: 'POST', path: `${t}/branches/create`, body: { name: 'exp', from_version: 1 }, status: 200 },
    { template: '/v1/table/{id}/branches/create', method: 'POST', path: `${t}/branches/create`, body: { name: 'exp' }, status: 409, code: 23 },
    { template: '/v1/table/{id}/branches/create', method: 'POST', path: `${t}/branches/create`, body: { name: 'other', from_version: 77 }, status: 404, code: 11 },
    { template: '/v1/table/{id}/branches/list', method: 'POST', path: `${t}/branches/list`, status: 200, check: (b) => expect(b).toMatchObject({ branches: { exp: { parentVersion: 1 } } }) },
    { template: '/v1/table/{id}/branches/delete', method: 'POST', path: `${t}/branches/delete`, body: { name: 'exp' }, status: 200 },
    { template: '/v1/table/{id}/branches/delete', method: 'POST', path: `${t}/branches/delete`, body: { name: 'exp' }, status: 404, code: 22 },
    { template: '/v1/table/{id}/branches/list', method: 'POST', path: `${t}/branches/list`, status: 200, check: (b) => expect(b).toEqual({ branches: {} }) },
    { template: '/v1/table/{id}/create_scalar_index', method: 'POST', path: `${t}/create_scalar_index`, body: { column: 'id', index_type: 'BTREE' }, status: 200 },
    { template: '/v1/table/{id}/create_scalar_index', method: 'POST', path: `${t}/create_scalar_index`, body: { column: 'id', index_type: 'BTREE' }, status: 409, code: 7 },
    { template: '/v1/table/{id}/create_scalar_index', method: 'POST', path: `${t}/create_scalar_index`, body: { column: 'nope', index_type: 'BITMAP' }, status: 404, code: 12 },
    { template: '/v1/table/{id}/create_index', method: 'POST', path: `${t}/create_index`, body: { column: 'vector', index_type: 'IVF_PQ', distance_type: 'l2', num_partitions: 2, num_sub_vectors: 2 }, status: 200 },
    { template: '/v1/table/{id}/create_index', method: 'POST', path: `${t}/create_index`, body: { column: 'label', index_type: 'FTS', name: 'label_fts' }, status: 200 },
    { template: '/v1/table/{id}/index/list', method: 'POST', path: `${t}/index/list`, status: 200, check: (b) => expect((b as { indexes: { index_name: string }[] }).indexes.map((i) => i.index_name).sort()).toEqual(['id_idx', 'label_fts', 'vector_idx']) },
    { template: '/v1/table/{id}/index/{index_name}/stats', method: 'POST', path: `${t}/index/id_idx/stats`, status: 200, check: (b) => expect(b).toMatchObject({ num_indexed_rows: 320, num_unindexed_rows: 0 }) },
    { template: '/v1/table/{id}/index/{index_name}/stats', method: 'POST', path: `${t}/index/ghost/stats`, status: 404, code: 6 },
    { template: '/v1/table/{id}/index/{index_name}/drop', method: 'POST', path: `${t}/index/label_fts/drop`, status: 200 },
    { template: '/v1/table/{id}/index/{index_name}/drop', method: 'POST', path: `${t}/index/label_fts/drop`, status: 404, code: 6 },
    { template: '/v1/table/{id}/stats', method: 'POST', path: `${t}/stats`, status: 200, check: (b) => expect(b).toMatchObject({ num_rows: 320, num_indices: 2 }) },
    { template: '/v1/table/{id}/add_columns', method: 'POST', path: `${t}/add_columns`, body: { new_columns: [{ name: 'twice', expression: 'id * 2' }] }, status: 200 },
    { template: '/v1/table/{id}/alter_columns', method: 'POST', path: `${t}/alter_columns`, body: { alterations: [{ path: 'twice', rename: 'double' }] }, status: 200 },
    { template: '/v1/table/{id}/alter_columns', method: 'POST', path: `${t}/alter_columns`, body: { alterations: [{ path: 'ghost', rename: 'x' }] }, status: 404, code: 12 },
    { template: '/v1/table/{id}/drop_columns', method: 'POST', path: `${t}/drop_columns`, body: { columns: ['double'] }, status: 200 },
    { template: '/v1/table/{id}/update', method: 'POST', path: `${t}/update`, body: { updates: [['label', "'changed'"]], predicate: 'id <= 5' }, status: 200, check: (b) => expect(b).toMatchObject({ updated_rows: 5 }) },
    { template: '/v1/table/{id}/delete', method: 'POST', path: `${t}/delete`, body: { predicate: 'id > 310' }, status: 200 },
    { template: '/v1/table/{id}/merge_insert', method: 'POST', path: `${t}/merge_insert`, query: 'on=id&when_matched_update_all=true&when_not_matched_insert_all=true', arrow: lifecycleRows(20, 300), status: 200, check: (b) => expect(b).toMatchObject({ num_updated_rows: 11, num_inserted_rows: 9 }) },
    { template: '/v1/table/{id}/count_rows', method: 'POST', path: `${t}/count_rows`, status: 200, check: (b) => expect(b).toBe(319) },
    { template: '/v1/table/{id}/restore', method: 'POST', path: `${t}/restore`, body: { version: 1 }, status: 200 },
    { template: '/v1/table/{id}/restore', method: 'POST', path: `${t}/restore`, body: { version: 999 }, status: 404, code: 11 },
    { template: '/v1/table/{id}/count_rows', method: 'POST', path: `${t}/count_rows`, status: 200, check: (b) => expect(b).toBe(300) },
    { template: '/v1/table/{id}/version/list', method: 'POST', path: '/v1/table/life%24ghost/version/list', status: 404, code: 4 },
    // The routes that were there before lifecycle, checked the same way.
    { template: '/v1/namespace/{id}/list', method: 'GET', path: '/v1/namespace/%24/list', status: 200 },
    { template: '/v1/namespace/{id}/describe', method: 'POST', path: '/v1/namespace/life/describe', status: 200 },
    { template: '/v1/namespace/{id}/exists', method: 'POST', path: '/v1/namespace/life/exists', status: 200 },
    { template: '/v1/namespace/{id}/table/list', method: 'GET', path: '/v1/namespace/life/table/list', status: 200 },
    { template: '/v1/table/{id}/describe', method: 'POST', path: `${t}/describe`, query: 'load_detailed_metadata=true', status: 200 },
    { template: '/v1/table/{id}/exists', method: 'POST', path: `${t}/exists`, status: 200 },
    { template: '/v1/table/{id}/declare', method: 'POST', path: '/v1/table/life%24declared/declare', status: 200 },
    // A declared table exists, is listed by default, and is left out with include_declared=false.
    { template: '/v1/table/{id}/exists', method: 'POST', path: '/v1/table/life%24declared/exists', status: 200, check: (b) => expect(b).toBeUndefined() },
    { template: '/v1/namespace/{id}/exists', method: 'POST', path: '/v1/namespace/life/exists', status: 200, check: (b) => expect(b).toBeUndefined() },
    { template: '/v1/namespace/{id}/table/list', method: 'GET', path: '/v1/namespace/life/table/list', status: 200, check: (b) => expect(b).toEqual({ tables: ['declared', 't'] }) },
    { template: '/v1/namespace/{id}/table/list', method: 'GET', path: '/v1/namespace/life/table/list', query: 'include_declared=false', status: 200, check: (b) => expect(b).toEqual({ tables: ['t'] }) },
    // ListAllTables: every namespace's tables, by id, paged.
    { template: '/v1/table', method: 'GET', path: '/v1/table', status: 200, check: (b) => expect(b).toEqual({ tables: ['life$declared', 'life$t'] }) },
    { template: '/v1/table', method: 'GET', path: '/v1/table', query: 'include_declared=false', status: 200, check: (b) => expect(b).toEqual({ tables: ['life$t'] }) },
    { template: '/v1/table', method: 'GET', path: '/v1/table', query: 'limit=1', status: 200, check: (b) => expect(b).toEqual({ tables: ['life$declared'], page_token: 'life$declared' }) },
    { template: '/v1/table', method: 'GET', path: '/v1/table', query: 'limit=1&page_token=life%24declared', status: 200, check: (b) => expect(b).toEqual({ tables: ['life$t'] }) },
    { template: '/v1/table', method: 'GET', path: '/v1/table', query: 'include_declared=maybe', status: 400, code: 13 },
    { template: '/v1/table/{id}/create', method: 'POST', path: '/v1/table/life%24other/create', arrow: lifecycleRows(3), status: 200 },
    { template: '/v1/table/{id}/create', method: 'POST', path: '/v1/table/life%24other/create', arrow: lifecycleRows(3), status: 409, code: 5 },
    { template: '/v1/table/{id}/drop', method: 'POST', path: '/v1/table/life%24other/drop', status: 200 },
    { template: '/v1/table/{id}/drop', method: 'POST', path: '/v1/table/life%24other/drop', status: 404, code: 4 },
    { template: '/v1/table/{id}/describe', method: 'POST', path: '/v1/table/life%24other/describe', status: 404, code: 4 },
    { template: '/v1/namespace/{id}/create', method: 'POST', path: '/v1/namespace/life/create', status: 409, code: 2 },
    { template: '/v1/namespace/{id}/drop', method: 'POST', path: '/v1/namespace/life/drop', status: 409, code: 3 },
    { template: '/v1/namespace/{id}/create', method: 'POST', path: '/v1/namespace/spare/create', body: { properties: { owner: 'ana' } }, status: 200 },
    { template: '/v1/namespace/{id}/drop', method: 'POST', path: '/v1/namespace/spare/drop', status: 200 },
    { template: '/v1/namespace/{id}/exists', method: 'POST', path: '/v1/namespace/ghost/exists', status: 404, code: 1 },
    { template: '/v1/namespace/{id}/list', method: 'GET', path: '/v1/namespace/ghost/list', status: 404, code: 1 },
    { template: '/v1/namespace/{id}/table/list', method: 'GET', path: '/v1/namespace/ghost/table/list', status: 404, code: 1 },
  ]

  it('answers each route as the contract says, in order, on one table', async () => {
    const problems: string[] = []
    for (const c of cases) {
      const r = await send(c)
      const label = `${c.method} ${c.path}${c.query ? `?${c.query}` : ''}`
      expect(r.status, `${label}: ${r.text}`).toBe(c.status)
      if (c.code !== undefined) expect((r.json as { code?: number }).code, label).toBe(c.code)
      // No server path in an error: not the catalog root, not a Lance file path. (Describe and declare answer
      // `location` by design: the lancedb client writes the table there.)
      if (c.status >= 400) {
        expect(r.text, label).not.toContain(server.root)
        expect(r.text, label).not.toMatch(/\.lance\/|_versions\/|\/usr\/local/)
      }
      c.check?.(r.json)
      if (responses && c.status !== 406) problems.push(...responses.check(c.template, c.method, c.status, r.json).map((p) => `${label}: ${p}`))
    }
    expect([...setupProblems, ...problems]).toEqual([])
  })

  it.skipIf(spec === null)('validates replies against the Lance namespace OpenAPI document (skipped when absent: set LANCE_NAMESPACE_SPEC)', () => {
    // The checks run inside the test above; this one says whether the document was there to check against.
    expect(responses).not.toBeNull()
    // The checker itself can fail: a version without its required manifest_path is refused.
    expect(responses!.check('/v1/table/{id}/version/list', 'POST', 200, { versions: [{ version: 1 }] })).not.toEqual([])
  })
})
