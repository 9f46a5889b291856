import * as lancedb from '@lancedb/lancedb'
import * as arrow from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectNamespace } from '../../src/core/namespace/connect'
import '../../src/core/namespace/dir'
import { viewRows } from '../core/namespace/view-suite'
import { KEY, serveTemp } from './support'

type Server = Awaited<ReturnType<typeof serveTemp>>

async function post(server: Server, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: JSON.stringify(body) })
}

async function query(server: Server, body: Record<string, unknown>): Promise<arrow.Table> {
  const r = await post(server, '/v1/table/things/query', { id: ['things'], vector: {}, ...body })
  expect(r.status, await r.clone().text()).toBe(200)
  expect(r.headers.get('content-type')).toBe('application/vnd.apache.arrow.file')
  return arrow.tableFromIPC(new Uint8Array(await r.arrayBuffer()))
}

function rows(table: arrow.Table | Record<string, unknown>[]): Record<string, unknown>[] {
  const list = Array.isArray(table) ? table : table.toArray().map((r) => r.toJSON() as Record<string, unknown>)
  // Compare as plain values (vectors as arrays, int64 as strings).
  return list.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v && typeof v === 'object' && 'toArray' in v ? Array.from((v as arrow.Vector).toArray() as Float32Array) : v])))
}

/**
 * Every QueryTableRequest field our server implements, against `@lancedb/lancedb` run locally on the same
 * table: the same rows, in the same order, with the same distances and scores (rest-contract.md §3.3).
 */
describe('query routes: QueryTableRequest against local lancedb', () => {
  let server: Server
  let lance: lancedb.Table
  let firstVersion: number
  let vector: number[]

  beforeAll(async () => {
    server = await serveTemp()
    const client = await connectNamespace('dir', { root: server.root })
    await client.createTable({ namespace: [], name: 'things' }, viewRows())
    await client.close()
    const db = await lancedb.connectNamespace('dir', { root: server.root })
    lance = await db.openTable('things')
    await lance.createIndex('label', { config: lancedb.Index.fts() })
    firstVersion = await lance.version()
    await lance.createIndex('vector', { config: lancedb.Index.ivfFlat({ numPartitions: 4 }) })
    vector = Array.from((await lance.query().where('id = 42').toArray())[0].vector as Iterable<number>)
  }, 60_000)
  afterAll(async () => {
    await server?.close()
  })

  it('filter, columns, offset and k', async () => {
    const got = await query(server, { k: 5, offset: 3, filter: 'score > 100 AND note IS NOT NULL', columns: { column_names: ['id', 'label'] } })
    const want = await lance.query().where('score > 100 AND note IS NOT NULL').select(['id', 'label']).offset(3).limit(5).toArray()
    expect(rows(got)).toEqual(rows(want))
    expect(got.schema.fields.map((f) => f.name)).toEqual(['id', 'label'])
  })

  for (const distance_type of ['l2', 'cosine', 'dot'] as const) {
    it(`vector search: ${distance_type}, vector_column, nprobes, refine_factor, prefilter`, async () => {
      const body = { k: 10, vector: { single_vector: vector }, vector_column: 'vector', distance_type, nprobes: 4, refine_factor: 2, prefilter: true, filter: 'id < 900' }
      const got = await query(server, body)
      const want = await lance.query().nearestTo(vector).column('vector').distanceType(distance_type).nprobes(4).refineFactor(2).where('id < 900').limit(10).toArray()
      expect(rows(got)).toEqual(rows(want))
      expect(got.schema.fields.map((f) => f.name)).toContain('_distance')
      const post = await query(server, { ...body, prefilter: false, bypass_vector_index: true, offset: 2 })
      const wantPost = await lance.query().nearestTo(vector).column('vector').distanceType(distance_type).nprobes(4).refineFactor(2).where('id < 900').postfilter().bypassVectorIndex().offset(2).limit(10).toArray()
      expect(rows(post)).toEqual(rows(wantPost))
    })
  }

  it('vector search without vector_column picks the column of that dimension', async () => {
    const got = await query(server, { k: 3, vector: { single_vector: vector } })
    const want = await lance.query().nearestTo(vector).limit(3).toArray()
    expect(rows(got)).toEqual(rows(want))
    expect(Number(got.getChild('id')!.get(0))).toBe(42)
  })

  it('full_text_query, with_row_id, fast_search', async () => {
    const got = await query(server, { k: 5, full_text_query: { string_query: { query: '42', columns: ['label'] } }, with_row_id: true })
    const want = await lance.query().fullTextSearch('42', { columns: ['label'] }).withRowId().limit(5).toArray()
    expect(rows(got)).toEqual(rows(want))
    expect(got.schema.fields.map((f) => f.name)).toEqual(expect.arrayContaining(['_score', '_rowid']))
    const fast = await query(server, { k: 5, vector: { single_vector: vector }, fast_search: true })
    const wantFast = await lance.query().nearestTo(vector).fastSearch().limit(5).toArray()
    expect(rows(fast)).toEqual(rows(wantFast))
  })

  it('version: reads the rows of that version, and count_rows with predicate and version', async () => {
    await lance.delete('id < 10')
    const old = await query(server, { k: 3, version: firstVersion })
    expect(rows(old).map((r) => r.id)).toEqual(['0', '1', '2'])
    const now = await query(server, { k: 3 })
    expect(rows(now).map((r) => r.id)).toEqual(['10', '11', '12'])
    const count = async (body: unknown) => {
      const r = await post(server, '/v1/table/things/count_rows', body)
      expect(r.status).toBe(200)
      return JSON.parse(await r.text()) as unknown
    }
    expect(await count({ id: ['things'], predicate: 'id < 100' })).toBe(90)
    expect(await count({ id: ['things'], predicate: 'id < 100', version: firstVersion })).toBe(100)
    expect(await count({ id: ['things'], version: firstVersion })).toBe(1000)
    expect(await count({ id: ['things'] })).toBe(990)
    const missing = await post(server, '/v1/table/things/query', { id: ['things'], k: 1, vector: {}, version: 999 })
    expect(missing.status).toBe(404)
  })

  it('explain_plan and analyze_plan answer a bare JSON string (the index use shows)', async () => {
    const explain = await post(server, '/v1/table/things/explain_plan', { id: ['things'], query: { k: 5, vector: { single_vector: vector } }, verbose: false })
    expect(explain.status).toBe(200)
    const plan = (await explain.json()) as unknown
    expect(typeof plan).toBe('string')
    expect(plan).toMatch(/ANNSubIndex|ANNIvfPartition/)
    expect(plan).toBe(await lance.query().nearestTo(vector).limit(5).explainPlan(false))
    const analyze = await post(server, '/v1/table/things/analyze_plan', { id: ['things'], k: 5, filter: 'id > 5', vector: {} })
    expect(analyze.status).toBe(200)
    expect(typeof (await analyze.json())).toBe('string')
  })

  it('refuses wrong types with 400 code 13, naming the field; bad predicates with Lance’s message', async () => {
    const bad: Record<string, unknown>[] = [
      { k: '5' },
      { k: 5, filter: 7 },
      { k: 5, offset: -1 },
      { k: 5, offset: 1.5 },
      { k: 5, columns: { column_names: 'id' } },
      { k: 5, vector: { single_vector: [1, 'x'] } },
      { k: 5, vector: { single_vector: vector }, distance_type: 'manhattan' },
      { k: 5, vector: { single_vector: vector }, nprobes: 0 },
      { k: 5, vector: { single_vector: vector }, refine_factor: 'big' },
      { k: 5, vector: { single_vector: vector }, prefilter: 'yes' },
      { k: 5, with_row_id: 1 },
      { k: 5, fast_search: 'true' },
      { k: 5, version: 'latest' },
      { k: 5, full_text_query: { string_query: { query: 5 } } },
      { k: 5, full_text_query: 'x' },
      { k: 5, vector: 'x' },
    ]
    for (const body of bad) {
      const r = await post(server, '/v1/table/things/query', { id: ['things'], ...body })
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(await r.json()).toMatchObject({ code: 13 })
    }
    const wrongDim = await post(server, '/v1/table/things/query', { id: ['things'], k: 5, vector: { single_vector: [1, 2, 3] }, vector_column: 'vector' })
    expect(wrongDim.status).toBe(400)
    expect(((await wrongDim.json()) as { error: string }).error).toMatch(/3 dimensions.*8-d/)
    const parse = await post(server, '/v1/table/things/query', { id: ['things'], k: 5, vector: {}, filter: 'score >>> 1' })
    expect(parse.status).toBe(400)
    expect(((await parse.json()) as { error: string }).error).toMatch(/`>>` is not an operator of filters/)
    const unknown = await post(server, '/v1/table/things/count_rows', { id: ['things'], predicate: 'nope = 1' })
    expect(unknown.status).toBe(400)
    expect(((await unknown.json()) as { error: string }).error).toMatch(/nope/)
    const tooLong = await post(server, '/v1/table/things/count_rows', { id: ['things'], predicate: 'x'.repeat(20_000) })
    expect(tooLong.status).toBe(400)
    const predicateType = await post(server, '/v1/table/things/count_rows', { id: ['things'], predicate: 5 })
    expect(predicateType.status).toBe(400)
  })
})
