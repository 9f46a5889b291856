import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import type * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildMcpServer, openMcpContext } from '../../src/mcp/server'
import { pinnedName } from '../../src/mcp/tools/sql'
import { removeDir } from '../helpers/catalog'
import { answer, callTool, fixtureCatalog, openDirectly, stdioClient } from './fixture'

const until = async (check: () => boolean) => {
  for (let i = 0; i < 1_200 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 50))
  expect(check()).toBe(true)
}

/** A query that runs for hours unless it is stopped: a five-way cross product of 300 rows, summed. */
const ENDLESS = 'SELECT sum(a.id * b.id + c.id - d.id + e.id) AS s FROM things a, things b, things c, things d, things e'

// `run_sql` over stdio with the SDK's own client; answers are checked against lancedb reading the same tables.
describe('MCP server over stdio: run_sql', () => {
  let root: string
  let client: Client
  let things: lancedb.Table

  beforeAll(async () => {
    root = await fixtureCatalog()
    things = await openDirectly(root, 'things')
    // One call at a time, and a time budget far past the test's: only a cancel can free the slot an endless query holds.
    client = await stdioClient(['--root', root, '--max-calls', '1'], { LCB_SQL_TIMEOUT_S: '36000' })
  }, 120_000)
  afterAll(async () => {
    await client?.close()
    await removeDir(root)
  })

  it('is listed as a read-only tool', async () => {
    const { tools } = await client.listTools()
    expect(tools.find((t) => t.name === 'run_sql')?.annotations).toMatchObject({ readOnlyHint: true })
  })

  it('answers an aggregate and a join as lancedb reads the same rows, naming the versions it read', async () => {
    const rows = (await things.query().where('score > 100').select(['score']).toArray()).map((r) => Number(r.score))
    const sum = await answer(client, 'run_sql', { sql: 'SELECT count(*) AS n, sum(score) AS total FROM things WHERE score > 100' })
    expect(sum.rows).toEqual([{ n: rows.length, total: rows.reduce((a, b) => a + b, 0) }])
    expect(sum.rows_in_result).toBe(1)
    expect(sum.read_versions).toEqual([{ namespace: [], table: 'things', version: await things.version() }])
    expect(sum.columns.map((c: { name: string }) => c.name)).toEqual(['n', 'total'])
    expect(sum.cut).toBeUndefined()

    const inner = await openDirectly(root, 'inner', ['ns'])
    const labels = new Map((await inner.query().select(['id', 'label']).toArray()).map((r) => [Number(r.id), String(r.label)]))
    const joined = await answer(client, 'run_sql', { sql: 'SELECT t.id, i.label FROM things t JOIN ns.inner i ON t.id = i.id WHERE t.id % 2 = 0 ORDER BY t.id DESC', limit: 50 })
    expect(joined.rows).toEqual([8, 6, 4, 2, 0].map((id) => ({ id, label: labels.get(id) })))
    expect(joined.read_versions.map((r: { table: string }) => r.table).sort()).toEqual(['inner', 'things'])
  })

  it('bounds the answer like query_rows: rows, bytes, vectors, long text; says how to get the rest', async () => {
    const version = await things.version()
    const first = await answer(client, 'run_sql', { sql: 'SELECT id, vector FROM things ORDER BY id', limit: 5 })
    expect(first.rows.map((r: { id: number }) => r.id)).toEqual([0, 1, 2, 3, 4])
    expect(first.rows[3].vector.vector).toMatchObject({ dimension: 8, first: [3, 3.001, 3.002, 3.003, 3.004, 3.005, 3.006, 3.007].map((x) => Math.fround(x)) })
    expect(first.cells_cut).toMatch(/full_vectors/)
    expect(first.cut.next_offset).toBe(5)
    expect(first.cut.how).toContain(`lance('things', version => ${version})`)
    const next = await answer(client, 'run_sql', { sql: 'SELECT id FROM things ORDER BY id', offset: 5, limit: 3 })
    expect(next.rows.map((r: { id: number }) => r.id)).toEqual([5, 6, 7])
    const last = await answer(client, 'run_sql', { sql: 'SELECT id FROM things ORDER BY id', offset: 298, limit: 20 })
    expect(last.rows.map((r: { id: number }) => r.id)).toEqual([298, 299])
    expect(last.cut).toBeUndefined()
    expect(last.rows_in_result).toBe(300)
    const whole = await answer(client, 'run_sql', { sql: 'SELECT vector FROM things WHERE id = 3', full_vectors: true })
    expect(whole.rows[0].vector).toHaveLength(8)

    const cut = await answer(client, 'run_sql', { sql: 'SELECT * FROM things', limit: 500, max_bytes: 2_000 })
    expect(cut.returned).toBeGreaterThan(0)
    expect(JSON.stringify(cut.rows).length).toBeLessThan(2_000)
    expect(cut.cut.reason).toMatch(/max_bytes/)
    expect(cut.cut.next_offset).toBe(cut.returned)
    const long = await answer(client, 'run_sql', { sql: 'SELECT text FROM long ORDER BY id' })
    expect(long.rows[0].text).toEqual({ cut: 'a'.repeat(2_000), chars: 5_000 })
    expect(long.cells_cut).toMatch(/max_cell_chars/)
    const tooMany = await callTool(client, 'run_sql', { sql: 'SELECT 1', limit: 501 })
    expect(tooMany.ok).toBe(false)
    // Past the million rows a query keeps, the answer says so (and no row count) and how to page further.
    const far = await answer(client, 'run_sql', { sql: 'SELECT range AS i FROM range(1500000)', offset: 999_497, limit: 5 })
    expect(far.rows.map((r: { i: number }) => r.i)).toEqual([999_497, 999_498, 999_499, 999_500, 999_501])
    expect(far.capped).toMatch(/LIMIT … OFFSET/)
    expect(far.rows_in_result).toBeUndefined()
    const past = await callTool(client, 'run_sql', { sql: 'SELECT 1', offset: 999_500 })
    expect(past.ok ? '' : past.text).toMatch(/LIMIT … OFFSET/)
  })

  it('refuses writes, files and settings in words, as tool errors, and keeps serving', async () => {
    const cases: [string, RegExp][] = [
      ["ATTACH 'x.db' AS x", /ATTACH is refused/],
      ["COPY things TO '/tmp/out.csv'", /COPY is refused/],
      ['CREATE TABLE t AS SELECT 1', /CREATE is refused/],
      ['DELETE FROM things', /DELETE is refused/],
      ["SELECT * FROM read_csv('/etc/passwd')", /table function read_csv\(\) is refused/],
      ['SELECT 1; SELECT 2', /2 statements/],
      ['SELEC 1', /syntax error.*line 1, column 1/i],
      ['SELECT * FROM thingz', /thingz/],
    ]
    for (const [sql, words] of cases) {
      const result = await callTool(client, 'run_sql', { sql })
      expect(result.ok, sql).toBe(false)
      if (!result.ok) {
        expect(result.text, sql).toMatch(words)
        expect(result.text, sql).not.toMatch(/internal|Unexpected error/)
      }
    }
    const refused = await callTool(client, 'run_sql', { sql: 'DELETE FROM things' })
    if (!refused.ok) expect(refused.text).toMatch(/nothing is written over MCP[\s\S]*code: unsupported/)
    expect(await things.countRows()).toBe(300)
  })

  it('stops a query when the client cancels the call (its one call slot frees for the next)', async () => {
    const controller = new AbortController()
    const endless = client.callTool({ name: 'run_sql', arguments: { sql: ENDLESS } }, undefined, { signal: controller.signal, timeout: 600_000 })
    // Long enough for the query to be running in DuckDB (it would run for hours); the assertion is on what follows.
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    controller.abort()
    await expect(endless).rejects.toThrow()
    // --max-calls 1: this waits for the endless query's slot, which only its cancel frees.
    expect((await answer(client, 'run_sql', { sql: 'SELECT 42 AS answer' })).rows).toEqual([{ answer: 42 }])
  }, 120_000)
})

// The same tool over the SDK's in-memory pair, watching what it asks the contract: the kept result is closed when
// the answer is made, and a cancel reaches the query.
describe('run_sql through the contract', () => {
  let root: string
  let ctx: Awaited<ReturnType<typeof openMcpContext>>
  let client: Client
  const seen: { method: string; input: Record<string, unknown>; ok?: boolean; code?: string }[] = []

  beforeAll(async () => {
    root = await fixtureCatalog()
    process.env.LCB_SQL_TIMEOUT_S = '36000'
    ctx = await openMcpContext({ source: { root } })
    delete process.env.LCB_SQL_TIMEOUT_S
    const dispatch = ctx.service.dispatch.bind(ctx.service)
    ctx.service.dispatch = async (method, input) => {
      const entry: (typeof seen)[number] = { method: String(method), input: input as Record<string, unknown> }
      seen.push(entry)
      const result = await dispatch(method, input)
      entry.ok = result.ok
      if (!result.ok) entry.code = result.error.code
      return result
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await buildMcpServer(ctx).connect(serverSide)
    client = new Client({ name: 'lcb-test', version: '1.0.0' })
    await client.connect(clientSide)
  }, 120_000)
  afterAll(async () => {
    await client?.close()
    await ctx?.close()
    await removeDir(root)
  })

  it('closes the query once it has answered, so no result is kept', async () => {
    seen.length = 0
    await client.callTool({ name: 'run_sql', arguments: { sql: 'SELECT id FROM things ORDER BY id', limit: 3 } })
    expect(seen.map((s) => s.method)).toEqual(['sql/run', 'sql/page', 'sql/close'])
    const queryId = seen[1]!.input.queryId as string
    expect(seen[2]!.input.queryId).toBe(queryId)
    const status = await ctx.service.dispatch('sql/status', { queryId })
    expect(status.ok ? status.value : status.error.code).toBe('not_found')
  })

  it('sends requests/cancel for the run when the client cancels, and the query ends cancelled', async () => {
    seen.length = 0
    const controller = new AbortController()
    const call = client.callTool({ name: 'run_sql', arguments: { sql: ENDLESS } }, undefined, { signal: controller.signal, timeout: 600_000 })
    await until(() => seen.some((s) => s.method === 'sql/run'))
    controller.abort()
    await expect(call).rejects.toThrow()
    const run = seen.find((s) => s.method === 'sql/run')!
    await until(() => seen.some((s) => s.method === 'requests/cancel' && s.input.requestId === run.input.requestId))
    await until(() => run.ok !== undefined)
    expect(run.code).toBe('cancelled')
  }, 120_000)
})

describe('run_sql names a version read exactly as a statement would', () => {
  it('names the other open catalog a table came from, quotes doubled', () => {
    expect(pinnedName({ namespace: ['shop'], name: 'orders', version: 3 })).toBe("lance('shop/orders', version => 3)")
    expect(pinnedName({ namespace: ['shop'], name: "o'x", version: 2, catalog: "Re'mote" })).toBe("lance('shop/o''x', version => 2, catalog => 'Re''mote')")
  })
})
