import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DirNamespaceClient } from '../../../src/core/namespace/dir'
import { SqlEngine } from '../../../src/core/sql/engine'
import { buildCatalog, makeTempDir, removeDir, sampleTable } from '../../helpers/catalog'

const ROWS = 30_000
const FRAGMENTS = 3
const ID = { namespace: ['ns'], name: 't' }
const PER_WRITE = ROWS / FRAGMENTS
const LIMITS = { memoryMb: 256, threads: 1, timeoutMs: 120_000 }

/**
 * A query's rows are held here as Arrow batches and scanned by DuckDB through a table function (heldScan.ts); a load
 * past the held bound goes into a DuckDB table instead. Both must give the same answers, which these queries
 * compute from the rows as written (sampleTable: id; label `row-<n>`, score n/2, a null note every 5th and the vector's
 * elements n + k/1000, where n is the row's place in its own write of 10,000).
 */
describe('catalog tables held for DuckDB or loaded into it', () => {
  let base: string
  let client: DirNamespaceClient
  let held: SqlEngine
  let loaded: SqlEngine

  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-held-')
    const root = await buildCatalog(join(base, 'catalog'), { namespaces: [['ns']] })
    client = await DirNamespaceClient.open(root)
    // Several fragments: Lance's batches end at fragment ends, so a load is several batches.
    await client.createTable(ID, sampleTable(PER_WRITE, { dimension: 4 }))
    for (let f = 1; f < FRAGMENTS; f++) await client.appendRows(ID, sampleTable(PER_WRITE, { dimension: 4, start: BigInt((f * ROWS) / FRAGMENTS) }))
    held = new SqlEngine(LIMITS)
    loaded = new SqlEngine(LIMITS, { heldLoadBytes: 1 })
  })
  afterAll(async () => {
    await held?.closeAll()
    await loaded?.closeAll()
    await client?.close()
    await removeDir(base)
  })

  async function rows(engine: SqlEngine, sql: string): Promise<string[][]> {
    const info = await engine.run(client, 'catalog', 'c1', sql)
    const table = tableFromIPC(await engine.page(info.queryId, 0, 1000))
    engine.close(info.queryId)
    return [...table].map((row) => table.schema.fields.map((f) => String(row[f.name])))
  }

  const ids = Array.from({ length: ROWS }, (_, i) => i)
  const cases: [string, string[][]][] = [
    ['SELECT count(*) AS n FROM ns.t', [[String(ROWS)]]],
    ['SELECT count(note) AS n, sum(id) AS s, max(label) AS m FROM ns.t', [[String(ROWS - ROWS / 5), String((ROWS * (ROWS - 1)) / 2), 'row-9999']]],
    // Columns asked in another order than the table's, a computed filter DuckDB applies, a vector's element.
    [
      'SELECT vector[2] AS v, label, id FROM ns.t WHERE id % 7919 = 3 ORDER BY id',
      ids.filter((i) => i % 7919 === 3).map((i) => [((i % PER_WRITE) + 0.001).toFixed(3), `row-${i % PER_WRITE}`, String(i)]),
    ],
    // Names a column the plan never reads (DuckDB drops a sum under a count(*)): it must still bind.
    ['SELECT count(*) AS n FROM (SELECT id, sum(score) AS s FROM ns.t GROUP BY id)', [[String(ROWS)]]],
    // A whole row across a fragment's end, nulls included (the note of a multiple of 5).
    ["SELECT id, label, score, note FROM ns.t WHERE id BETWEEN 9998 AND 10001 ORDER BY id", [9998, 9999, 10000, 10001].map((i) => [String(i), `row-${i % PER_WRITE}`, String((i % PER_WRITE) / 2), i % 5 === 0 ? 'null' : `note ${i % PER_WRITE}`])],
  ]

  it.each(cases)('%s: the same answer held here or loaded into DuckDB', async (sql, expected) => {
    const fromHeld = await rows(held, sql)
    const fromTable = await rows(loaded, sql)
    // Float32 vector elements print with float noise: compare them to 3 decimals.
    const tidy = (r: string[][]) => (sql.includes('vector[2]') ? r.map(([v, ...rest]) => [Number(v).toFixed(3), ...rest]) : r)
    expect(tidy(fromHeld)).toEqual(expected)
    expect(tidy(fromTable)).toEqual(expected)
  }, 60_000)

  it('a small load is held here; past the bound it goes into a DuckDB table (which DuckDB can spill)', async () => {
    expect(held.kept().length).toBeGreaterThan(0)
    for (const kept of held.kept()) {
      expect(kept).toMatchObject({ held: true, name: expect.stringMatching(/^__lcb_scan\(\d+\)$/) })
      expect(kept.bytes).toBeGreaterThan(0)
    }
    for (const kept of loaded.kept()) {
      expect(kept).toMatchObject({ held: false, name: expect.stringMatching(/^__lcb_t\d+$/), bytes: 0 })
    }
  })

  it("a load reads Lance in batches far larger than Lance's default 1,024 rows", async () => {
    const sizes: number[] = []
    for await (const batch of client.scan(ID, { columns: ['id'], filter: 'id >= 5' }, { limit: ROWS, batchRows: 16_384 })) sizes.push(batch.numRows)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(ROWS - 5)
    expect(Math.max(...sizes)).toBeGreaterThan(1024)
  })
})
