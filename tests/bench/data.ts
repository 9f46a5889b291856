import { existsSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { Utf8, makeVector, vectorFromArray, type Table } from 'apache-arrow'
import { batchOf, float32Vectors, seededRandom, tableOf } from '../../src/core/arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { count, time } from './lib'

/**
 * Benchmark data, generated once into the cache directory and reused by every section
 * (e.g. the Chromium section opens the same 1M-row table through the harness).
 */

/** Rows per generated chunk: each is one `appendRows` (one fragment), as a streamed import makes. */
const CHUNK_ROWS = 10_000

/** Where the big table lives inside its catalog. */
export const BENCH_TABLE = { namespace: ['bench'], name: 'rows' } as const

/** `{ id: Int64, label: Utf8 (20 chars), score: Float64, vector: FixedSizeList<Float32>[dim] }`, random floats. */
export function chunk(first: number, rows: number, dim: number, random: () => number): Table {
  const values = new Float32Array(rows * dim)
  for (let i = 0; i < values.length; i++) values[i] = random() * 2 - 1
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from({ length: rows }, (_, i) => BigInt(first + i))), nullable: false },
      label: { vector: vectorFromArray(Array.from({ length: rows }, (_, i) => `label-${String(first + i).padStart(14, '0')}`), new Utf8()), nullable: false },
      score: { vector: makeVector(Float64Array.from({ length: rows }, () => random() * 100)), nullable: false },
      vector: { vector: float32Vectors(values, dim), nullable: false },
    }),
  ])
}

/**
 * The catalog holding the big table {@link BENCH_TABLE}, generated once (a `.ready` file next to it says it is
 * complete). Returns its root.
 */
export async function ensureRowsCatalog(
  ctx: { dir: string; log(message: string): void },
  s: { rows: number; dim: number },
): Promise<string> {
  const root = join(ctx.dir, `rows-${s.rows}x${s.dim}`)
  if (existsSync(`${root}.ready`)) return root
  await rm(root, { recursive: true, force: true })
  ctx.log(`generating ${count(s.rows)} rows × ${s.dim}-d vectors into ${root} (once)…`)
  const [elapsed] = await time(async () => {
    const client = await DirNamespaceClient.open(root, { create: true })
    const random = seededRandom(42)
    await client.createNamespace(BENCH_TABLE.namespace)
    for (let first = 0; first < s.rows; first += CHUNK_ROWS) {
      const data = chunk(first, Math.min(CHUNK_ROWS, s.rows - first), s.dim, random)
      if (first === 0) await client.createTable(BENCH_TABLE, data)
      else await client.appendRows(BENCH_TABLE, data)
      if ((first / CHUNK_ROWS) % 10 === 9) ctx.log(`  ${count(first + CHUNK_ROWS)} rows`)
    }
    await client.close()
  })
  ctx.log(`generated in ${(elapsed / 1000).toFixed(1)} s`)
  await writeFile(`${root}.ready`, new Date().toISOString())
  return root
}

/** {@link BENCH_TABLE} in the catalog at `root`, opened both ways the benches compare: our client and bare lancedb. */
export async function openRowsTable(root: string) {
  const client = await DirNamespaceClient.open(root)
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable(BENCH_TABLE.name, [...BENCH_TABLE.namespace])
  const version = await table.version()
  const ref = { connectionId: 'bench', namespace: [...BENCH_TABLE.namespace], name: BENCH_TABLE.name }
  const close = async () => {
    table.close()
    db.close()
    await client.close()
  }
  return { client, table, version, ref, close }
}

/** The bare side of the map benches: lancedb streams `table`'s vector column to the end; throws unless `rows` came. */
export async function bareVectorScan(table: lancedb.Table, rows: number): Promise<void> {
  let n = 0
  for await (const batch of table.query().select(['vector'])) n += batch.numRows
  if (n !== rows) throw new Error(`bare scan read ${n} rows`)
}
