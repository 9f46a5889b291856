/**
 * Asking the data (the query benchmark): each query through the whole path a page takes to the renderer —
 * DirNamespaceClient (view pinned at a version, columns checked, one Lance query) → Arrow IPC bytes → structured
 * clone (what Electron IPC does) → apache-arrow decode — versus the same bare `@lancedb/lancedb` call, interleaved
 * (ABBA), target ≤ 1.2×:
 * - the first page of a filtered view, selective (≈0.1 % of rows) and broad (≈90 %), and the count of each;
 * - a sorted page (score descending) at offset 0 and at the middle of the table (what a sorted page costs);
 * - a k=10 vector search with the column's IVF index and without it (exact), and a full-text search.
 * Over REST: our RestNamespaceClient + our server (in-process, loopback) vs the same bare local lancedb call, reported.
 *
 * The table is bench/data.ts's (BENCH_ROWS × BENCH_DIM, generated once); this section adds an IVF_FLAT index on
 * `vector` and an FTS index on `label` once (when the table lacks them; see ensureIndexes). Knobs: BENCH_ROWS (1,000,000), BENCH_DIM
 * (768), BENCH_PAGE_ROWS (100), BENCH_QUERY_REPS (31), BENCH_INDEX_TIMEOUT_S (1800). Quick run: `BENCH_ROWS=20000 npm run bench -- query`.
 */
import { spawn } from 'node:child_process'
import { cpus } from 'node:os'
import { join, resolve } from 'node:path'
import * as v8 from 'node:v8'
import * as lancedb from '@lancedb/lancedb'
import { tableFromIPC } from 'apache-arrow'
import type { TableViewSpec } from '../../src/contract'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { RestNamespaceClient } from '../../src/core/namespace/rest'
import { startServer } from '../../src/server'
import { planUsesVectorIndex } from '../../src/core/query/module'
import { BENCH_TABLE, ensureRowsCatalog } from './data'
import { compare, count, envInt, ms, ratio, time, verdict, type BenchContext, loadAverages, type Section } from './lib'

const TARGET = 1.2
const ROOT = resolve(__dirname, '..', '..')
const KEY = 'bench-query-key'

function settings() {
  return {
    rows: envInt('BENCH_ROWS', 1_000_000),
    dim: envInt('BENCH_DIM', 768),
    pageRows: envInt('BENCH_PAGE_ROWS', 100),
    reps: envInt('BENCH_QUERY_REPS', 31),
  }
}

/** The indexes this section measures with: IVF_FLAT on `vector` (√rows/4 partitions) and FTS on `label`. */
const INDEXES = [
  { column: 'vector', type: 'IvfFlat' },
  { column: 'label', type: 'FTS' },
] as const

/** Which of {@link INDEXES} are missing or do not cover every row (e.g. rows appended after it was built). */
async function missingIndexes(table: lancedb.Table): Promise<string[]> {
  const present = await table.listIndices()
  const missing: string[] = []
  for (const wanted of INDEXES) {
    const found = present.find((i) => i.indexType === wanted.type && i.columns.length === 1 && i.columns[0] === wanted.column)
    const stats = found ? await table.indexStats(found.name) : undefined
    if (!stats || stats.numUnindexedRows > 0) missing.push(wanted.column)
  }
  return missing
}

/**
 * Builds both indexes once on the cached table, in a child process with a larger Lance CPU pool: Lance 8's FTS
 * writer parks a CPU-pool thread while it waits for the file writer, which needs that pool too, so on a 2-core
 * machine (a 1–2-thread pool) an FTS build with ~1M distinct tokens deadlocks at "writing … posting lists" (idle,
 * no I/O, forever). `LANCE_CPU_THREADS` is read once per process, so the child gets it and the measured process
 * keeps Lance's defaults. Whatever a killed earlier run left is rebuilt (`replace: true`); an index only counts
 * when its stats say it covers every row.
 */
async function ensureIndexes(ctx: BenchContext, root: string, table: lancedb.Table, rows: number): Promise<void> {
  const missing = await missingIndexes(table)
  if (missing.length === 0) return
  const partitions = Math.max(2, Math.round(Math.sqrt(rows) / 4))
  const timeoutS = envInt('BENCH_INDEX_TIMEOUT_S', 1800)
  ctx.log(`indexing ${missing.join(' and ')} (IVF_FLAT with ${partitions} partitions on vector, FTS on label; once, in a child process)…`)
  const [elapsed] = await time(
    () =>
      new Promise<void>((resolvePromise, reject) => {
        const env = { ...process.env, LANCE_CPU_THREADS: String(Math.max(4, cpus().length)) }
        const proc = spawn(join(ROOT, 'node_modules', '.bin', 'tsx'), [__filename, '--build-indexes', root, String(partitions), ...missing], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] })
        let tail = ''
        proc.stderr.on('data', (d: Buffer) => {
          tail = (tail + d.toString()).slice(-4000)
          for (const line of d.toString().split('\n')) if (line.startsWith('[index] ')) ctx.log(line.slice(8))
        })
        const started = Date.now()
        const beat = setInterval(() => ctx.log(`  still indexing (${Math.round((Date.now() - started) / 1000)} s)`), 30_000)
        const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutS * 1000)
        proc.on('error', reject)
        proc.on('close', (code, signal) => {
          clearInterval(beat)
          clearTimeout(timer)
          if (code === 0) resolvePromise()
          else reject(new Error(`index build ${signal === 'SIGKILL' ? `killed after ${timeoutS} s (BENCH_INDEX_TIMEOUT_S)` : `exited ${code}`}: ${tail.split('\n').slice(-8).join('\n')}`))
        })
      }),
  )
  await table.checkoutLatest()
  const still = await missingIndexes(table)
  if (still.length > 0) throw new Error(`index build finished but ${still.join(', ')} still not fully indexed`)
  ctx.log(`indexed in ${(elapsed / 1000).toFixed(1)} s`)
}

/** The child of {@link ensureIndexes}: builds the named indexes, printing each step. */
async function buildIndexes(root: string, partitions: number, columns: string[]): Promise<void> {
  const step = (message: string) => process.stderr.write(`[index] ${message}\n`)
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable(BENCH_TABLE.name, [...BENCH_TABLE.namespace])
  if (columns.includes('vector')) {
    step(`IVF_FLAT on vector: training ${partitions} partitions on a sample, then assigning every row…`)
    const [ms] = await time(() => table.createIndex('vector', { config: lancedb.Index.ivfFlat({ numPartitions: partitions, distanceType: 'l2' }), replace: true }))
    step(`IVF_FLAT on vector built in ${(ms / 1000).toFixed(1)} s`)
  }
  if (columns.includes('label')) {
    step('FTS on label…')
    const [ms] = await time(() => table.createIndex('label', { config: lancedb.Index.fts(), replace: true }))
    step(`FTS on label built in ${(ms / 1000).toFixed(1)} s`)
  }
  table.close()
  db.close()
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

    const loadBefore = loadAverages()
    const local: (string | number)[][] = []
    for (const [label, ours, bareCall] of cases) {
      ctx.log(label)
      const reps = label.includes('offset') && !label.endsWith('offset 0') ? Math.max(5, Math.floor(s.reps / 4)) : s.reps
      const r = await compare(ours, bareCall, { reps, warmup: 2 })
      const spread = r.reps.map((x) => x.ratio)
      ctx.log(`  every rep (ours/bare ms): ${r.reps.map((x) => `${ms(x.ours)}/${ms(x.bare)}`).join(' ')}`)
      local.push([label, ms(r.bare), ms(r.ours), ratio(r.ratio), `${ratio(Math.min(...spread))}–${ratio(Math.max(...spread))}`, verdict(r.ratio, TARGET)])
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
        const spread = r.reps.map((x) => x.ratio)
        remote.push([label, ms(r.bare), ms(r.ours), ratio(r.ratio), `${ratio(Math.min(...spread))}–${ratio(Math.max(...spread))}`])
      }
    } finally {
      await rest.close()
      await server.close()
    }
    db.close()
    await client.close()
    notes.push(`load average (1 / 5 / 15 min) on ${cpus().length} cores, before the measured reps: ${loadBefore}; after: ${loadAverages()}`)
    return {
      notes,
      tables: [
        { title: 'Latency (ms): whole path vs the same bare lancedb call', columns: ['query', 'bare', 'ours (whole path)', 'ratio', 'per-rep ratios (min–max)', 'verdict'], rows: local },
        { title: 'Over REST (ms): our client + our server on loopback vs bare local lancedb (reported, no target)', columns: ['query', 'bare local', 'ours over REST', 'ratio', 'per-rep ratios (min–max)'], rows: remote },
      ],
    }
  },
}

if (require.main === module && process.argv[2] === '--build-indexes') {
  const [, root, partitions, ...columns] = process.argv.slice(2)
  buildIndexes(root!, Number(partitions), columns).catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
