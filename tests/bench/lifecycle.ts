/**
 * Table lifecycle benchmark (a section of `npm run bench`): the app's lifecycle calls through the core
 * (`DirNamespaceClient`) vs the bare @lancedb/lancedb calls doing the same work, in the same run (ABBA reps).
 *
 * The table is written the way an import writes it: BENCH_LIFECYCLE_ROWS rows (1,000,000) in 10,000-row chunks,
 * one version per chunk (101 versions), with an int64 id, a float64 and a 16-d vector, and a BTree index.
 * Targets: listing versions, opening an old version's first page, listing indexes with their stats, and table
 * stats ≤ 1.2× bare; creating an index ≤ 1.1× bare `createIndex`.
 */
import { mkdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import * as arrow from 'apache-arrow'
import { batchOf, float32Vectors, tableOf } from '../../src/core/arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { compare, count, envInt, ms, ratio, verdict, type BenchContext, type Report, type Section } from './lib'

const CHUNK = 10_000
const NAME = 'events'

function chunk(start: number, n: number): arrow.Table {
  return tableOf([
    batchOf({
      id: arrow.makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt(start + i))),
      x: arrow.makeVector(Float64Array.from({ length: n }, (_, i) => (start + i) / 3)),
      vector: float32Vectors(Float32Array.from({ length: n * 16 }, (_, i) => Math.sin(start * 16 + i)), 16),
    }),
  ])
}

async function run(context: BenchContext): Promise<Report> {
  const rows = envInt('BENCH_LIFECYCLE_ROWS', 1_000_000)
  const reps = envInt('BENCH_REPS', 31)
  const root = join(context.dir, 'lifecycle')
  await rm(root, { recursive: true, force: true })
  await mkdir(root, { recursive: true })
  const client = await DirNamespaceClient.open(root, { create: true })
  const id = { namespace: [], name: NAME }
  context.log(`lifecycle: writing ${count(rows)} rows in ${CHUNK}-row chunks`)
  await client.createTable(id, chunk(0, Math.min(CHUNK, rows)))
  for (let start = CHUNK; start < rows; start += CHUNK) await client.appendRows(id, chunk(start, Math.min(CHUNK, rows - start)))
  await client.createIndex(id, { column: 'id', type: 'BTREE' })
  const db = await lancedb.connectNamespace('dir', { root })
  const versions = (await client.listVersions(id)).length

  const results: [string, { ours: number; bare: number; ratio: number }, number][] = []
  const measure = async (label: string, ours: () => Promise<unknown>, bare: () => Promise<unknown>, target = 1.2, n = reps) => {
    context.log(`lifecycle: ${label}`)
    results.push([label, await compare(ours, bare, { reps: n }), target])
  }

  await measure(
    `list ${versions} versions (with tags)`,
    () => client.listVersions(id),
    async () => {
      const t = await db.openTable(NAME, [])
      await Promise.all([t.listVersions(), (await t.tags()).list()])
    },
  )
  await measure(
    'open version 1: describe + first 200 rows',
    async () => {
      await client.describeTable(id, { version: 1 })
      await client.readPage(id, { version: 1, offset: 0, limit: 200 })
    },
    async () => {
      const t = await db.openTable(NAME, [], { version: 1 })
      await Promise.all([t.countRows(), t.schema(), t.version()])
      await t.query().limit(200).toArrow()
    },
  )
  await measure(
    'list indexes with their stats',
    () => client.listIndexes(id),
    async () => {
      const t = await db.openTable(NAME, [])
      await Promise.all((await t.listIndices()).map((c) => t.indexStats(c.name)))
    },
  )
  await measure(
    'table stats',
    () => client.tableStats(id),
    async () => {
      const t = await db.openTable(NAME, [])
      await Promise.all([t.stats(), t.listVersions(), t.version()])
    },
  )
  await measure(
    'create a BTree index on 1M ids (replace)',
    () => client.createIndex(id, { column: 'x', type: 'BTREE', name: 'x_idx', replace: true }),
    async () => {
      const t = await db.openTable(NAME, [])
      await t.createIndex('x', { config: lancedb.Index.btree(), name: 'x_idx', replace: true })
    },
    1.1,
    Math.max(5, Math.floor(reps / 4)),
  )
  await client.close()
  db.close()

  return {
    notes: [`${count(rows)} rows written in ${CHUNK}-row chunks: ${versions} versions; ${reps} reps per operation (ABBA), medians.`],
    tables: [
      {
        title: 'Lifecycle calls through the core vs bare @lancedb/lancedb',
        columns: ['operation', 'ours (ms)', 'bare (ms)', 'ratio', 'verdict'],
        rows: results.map(([label, r, target]) => [label, ms(r.ours), ms(r.bare), ratio(r.ratio), verdict(r.ratio, target)]),
      },
    ],
  }
}

export const section: Section = { title: 'Table lifecycle', run }
