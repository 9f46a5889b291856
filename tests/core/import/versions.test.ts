/**
 * One import, few versions: commits are made per 32 MiB of decoded data (DEFAULT_CHUNK_LIMITS), not per
 * 10k rows, so a narrow table of millions of rows becomes a handful of table versions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSource, writeSource } from '../../../src/core/import'
import { duckdbCopy } from '../../fixtures/import/duckdb'
import { pl } from '../../fixtures/import/polars'
import { workspace, type Workspace } from './helpers'

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  await ws.cleanup()
})

async function importDefault(path: string, name: string) {
  const source = await openSource(path)
  const result = await writeSource(ws.client, { namespace: [], name }, source, { mode: 'create' })
  return { result, description: await ws.client.describeTable({ namespace: [], name }) }
}

describe('commit by bytes', () => {
  it('3M narrow rows from a polars Arrow file (72 MiB decoded) make at most 3 commits, not 300', async () => {
    const rows = 3_000_000
    const path = ws.file('narrow.arrow')
    pl.DataFrame({
      id: pl.Series('id', Array.from({ length: rows }, (_, i) => i), pl.Int64),
      x: pl.Series('x', Array.from({ length: rows }, (_, i) => i / 3), pl.Float64),
      y: pl.Series('y', Array.from({ length: rows }, (_, i) => i % 1000), pl.Int64),
    }).writeIPC(path)
    const { result, description } = await importDefault(path, 'narrow')
    expect(result.rowCount).toBe(rows)
    expect(description.rowCount).toBe(rows)
    // Version 1 is the create; each further commit adds one.
    expect(description.version).toBeLessThanOrEqual(3)
  }, 120_000)

  it('a 500k-row DuckDB CSV makes one commit (it made 50)', async () => {
    const path = ws.file('narrow.csv')
    await duckdbCopy('SELECT i AS id, i * 0.5 AS x, lpad((i % 99999)::VARCHAR, 5, \'0\') AS zip FROM range(500000) t(i)', path, 'csv')
    const { result, description } = await importDefault(path, 'narrowcsv')
    expect(result.rowCount).toBe(500_000)
    expect(description.version).toBe(1)
  }, 120_000)
})
