/**
 * Asking the data (issue 7's benchmark): each query through the whole path a page takes to the renderer —
 * DirNamespaceClient (view pinned at a version, columns checked, one Lance query) → Arrow IPC bytes → structured
 * clone (what Electron IPC does) → apache-arrow decode — versus the same bare `@lancedb/lancedb` call, interleaved
 * (ABBA), target ≤ 1.2×:
 * - the first page of a filtered view, selective (≈0.1 % of rows) and broad (≈90 %), and the count of each;
 * - a sorted page (score descending) at offset 0 and at the middle of the table (what a sorted page costs);
 * - a k=10 vector search with the column's IVF index and without it (exact), and a full-text search.
 * Over REST: our RestNamespaceClient + our server (in-process, loopback) vs the same bare local lancedb call, reported.
 *
 * The table is bench/data.ts's (BENCH_ROWS × BENCH_DIM, generated once); this section adds an IVF_FLAT index on
 * `vector` and an FTS index on `label` once (a `.query-indexes` marker). Knobs: BENCH_ROWS (1,000,000), BENCH_DIM
 * (768), BENCH_PAGE_ROWS (100), BENCH_QUERY_REPS (31). Quick run: `BENCH_ROWS=20000 npm run bench -- query`.
 */
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import * as v8 from 'node:v8'
import * as lancedb from '@lancedb/lancedb'
import { tableFromIPC } from 'apache-arrow'
import type { TableViewSpec } from '../../src/contract'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { RestNamespaceClient } from '../../src/core/namespace/rest'
import { startServer } from '../../src/server'
import { planUsesVectorIndex } from '../../src/core/query/module'
import { BENCH_TABLE, ensureRowsCatalog } from './data'
import { compare, count, envInt, ms, ratio, time, verdict, type BenchContext, type Section } from './lib'

const TARGET = 1.2
const KEY = 'bench-query-key'

function settings() {
  return {
    rows: envInt('BENCH_ROWS', 1_000_000),
    dim: envInt('BENCH_DIM', 768),
    pageRows: envInt('BENCH_PAGE_ROWS', 100),
    reps: envInt('BENCH_QUERY_REPS', 31),
  }
}

/** IVF_FLAT on `vector` (√rows/4 partitions) and FTS on `label`, built once on the cached table. */
async function ensureIndexes(ctx: BenchContext, root: string, table: lancedb.Table, rows: number): Promise<void> {
  const marker = `${root}.query-indexes`
  if (existsSync(marker)) return
  const partitions = Math.max(2, Math.round(Math.sqrt(rows) / 4))
  ctx.log(`indexing: IVF_FLAT (${partitions} partitions) on vector, FTS on label (once)…`)
  const [elapsed] = await time(async () => {
    await table.createIndex('vector', { config: lancedb.Index.ivfFlat({ numPartitions: partitions, distanceType: 'l2' }), replace: true })
    await table.createIndex('label', { config: lancedb.Index.fts(), replace: true })
  })
  ctx.log(`indexed in ${(elapsed / 1000).toFixed(1)} s`)
  await writeFile(marker, new Date().toISOString())
}

export const section: Section = {
  title: 'Asking the data: filter, count, sort, vector and full-text search vs bare @lancedb/lancedb',
  async run(ctx) {
    const s = settings()
    const root = await ensureRowsCatalog(ctx, s)
    const db = await lancedb.connectNamespace('dir', { root })
    const bare = await db.openTable(BENCH_TABLE.name, [...BENCH_TABLE.namespace])
    await ensureIndexes(ctx, root, bare, s.rows)
    await bare.checkoutLatest()
    const client = await DirNamespaceClient.open(root)
    const described = await client.describeTable(BENCH_TABLE, { indexes: true })
    const version = described.version
    const rows = described.rowCount
    const probe = (await bare.query().where('id = 42').limit(1).toArray())[0] as { vector: Iterable<number>; label: string }
    const vector = Array.from(probe.vector)
    const word = probe.label.split('-')[1]!
    const middle = Math.floor(rows / 2)
    const notes = [
      `table: ${count(rows)} rows of {id Int64, label Utf8, score Float64 (uniform 0–100), vector FixedSizeList<Float32>[${s.dim}]}, version ${version}; indexes: ${(described.indexes ?? []).map((i) => `${i.type} on ${i.columns.join(',')}`).join(', ')}`,
      `${count(s.pageRows)}-row pages; ${s.reps} interleaved reps (ABBA), medians; ratios are medians of per-rep ratios`,
      'whole path = DirNamespaceClient.readPage / countRows through the view (pinned at its version) → IPC bytes → v8 structured clone → decode',
    ]

    const page = (view: TableViewSpec, offset = 0, limit = s.pageRows) => async () => {
      const bytes = await client.readPage(BENCH_TABLE, { offset, limit, view: { version, ...view } })
      return tableFromIPC(v8.deserialize(v8.serialize(bytes)) as Uint8Array)
    }
    const selective = 'score > 99.9'
    const broad = 'score > 10'
    const vectorSearch = (bypassIndex: boolean): TableViewSpec => ({ search: { kind: 'vector', column: 'vector', vector, metric: 'l2', k: 10, prefilter: true, ...(bypassIndex ? { bypassIndex } : {}) } })
    const fts: TableViewSpec = { search: { kind: 'fts', query: word, k: 10 } }
    const cases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [`first page, selective filter (${selective})`, page({ filter: selective }), () => bare.query().where(selective).limit(s.pageRows).toArrow()],
      [`first page, broad filter (${broad})`, page({ filter: broad }), () => bare.query().where(broad).limit(s.pageRows).toArrow()],
      [`count, selective filter`, () => client.countRows(BENCH_TABLE, { view: { version, filter: selective } }), () => bare.countRows(selective)],
      [`count, broad filter`, () => client.countRows(BENCH_TABLE, { view: { version, filter: broad } }), () => bare.countRows(broad)],
      [`sorted page (score desc), offset 0`, page({ sort: [{ column: 'score', direction: 'desc' }] }), () => bare.query().orderBy({ columnName: 'score', ascending: false }).limit(s.pageRows).toArrow()],
      [
        `sorted page (score desc), offset ${count(middle)}`,
        page({ sort: [{ column: 'score', direction: 'desc' }] }, middle),
        () => bare.query().orderBy({ columnName: 'score', ascending: false }).offset(middle).limit(s.pageRows).toArrow(),
      ],
      [`vector search k=10, IVF index`, page(vectorSearch(false), 0, 10), () => bare.query().nearestTo(vector).column('vector').distanceType('l2').limit(10).toArrow()],
      [`vector search k=10, exact (no index)`, page(vectorSearch(true), 0, 10), () => bare.query().nearestTo(vector).column('vector').distanceType('l2').bypassVectorIndex().limit(10).toArrow()],
      [`full-text search "${word}", k=10`, page(fts, 0, 10), () => bare.query().fullTextSearch(word).limit(10).toArrow()],
    ]
    const plan = await client.explainQuery(BENCH_TABLE, { version, ...vectorSearch(false) })
    notes.push(`the indexed vector search's plan ${planUsesVectorIndex(plan) ? 'uses' : 'does NOT use'} the IVF index (explainPlan)`)

    const local: (string | number)[][] = []
    for (const [label, ours, bareCall] of cases) {
      ctx.log(label)
      const reps = label.includes('offset') && !label.endsWith('offset 0') ? Math.max(5, Math.floor(s.reps / 4)) : s.reps
      const r = await compare(ours, bareCall, { reps, warmup: 2 })
      local.push([label, ms(r.bare), ms(r.ours), ratio(r.ratio), verdict(r.ratio, TARGET)])
    }

    // Over REST: our client + our server (in-process) vs the same bare local call.
    const server = await startServer({ root, apiKeys: [KEY], port: 0 })
    const rest = new RestNamespaceClient({ uri: server.url, headers: { 'x-api-key': KEY } })
    const restPage = (view: TableViewSpec, offset = 0, limit = s.pageRows) => () => rest.readPage(BENCH_TABLE, { offset, limit, view: { version, ...view } }).then((b) => tableFromIPC(b))
    const restCases: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
      [`first page, selective filter`, restPage({ filter: selective }), cases[0]![2]],
      [`first page, broad filter`, restPage({ filter: broad }), cases[1]![2]],
      [`count, selective filter`, () => rest.countRows(BENCH_TABLE, { view: { version, filter: selective } }), cases[2]![2]],
      [`sorted page, offset 0`, restPage({ sort: [{ column: 'score', direction: 'desc' }] }), cases[4]![2]],
      [`vector search k=10, IVF index`, restPage(vectorSearch(false), 0, 10), cases[6]![2]],
      [`full-text search, k=10`, restPage(fts, 0, 10), cases[8]![2]],
    ]
    const remote: (string | number)[][] = []
    try {
      for (const [label, ours, bareCall] of restCases) {
        ctx.log(`rest: ${label}`)
        const r = await compare(ours, bareCall, { reps: s.reps, warmup: 2 })
        remote.push([label, ms(r.bare), ms(r.ours), ratio(r.ratio)])
      }
    } finally {
      await rest.close()
      await server.close()
    }
    db.close()
    await client.close()
    return {
      notes,
      tables: [
        { title: 'Latency (ms): whole path vs the same bare lancedb call', columns: ['query', 'bare', 'ours (whole path)', 'ratio', 'verdict'], rows: local },
        { title: 'Over REST (ms): our client + our server on loopback vs bare local lancedb (reported, no target)', columns: ['query', 'bare local', 'ours over REST', 'ratio'], rows: remote },
      ],
    }
  },
}
