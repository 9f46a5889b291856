/**
 * REST benchmark (a section of `npm run bench`; also runs alone: `npx tsx bench/rest.ts`).
 *
 * 1. Latency of list / describe / page through our RestNamespaceClient vs @lancedb/lancedb's own REST
 *    client (`connectNamespace("rest")`: listNamespaces, tableNames, openTable + query), both against our
 *    server on loopback. Target: ours ≤ 1.2× theirs (median of per-rep ratios).
 *    Same work on both sides: one HTTP request per operation each (lancedb's openTable is one describe;
 *    it then reads schema, version, row count and rows from the table's files itself, which our server
 *    does for us), the same offsets in the same rep, and the same result (a page as a decoded arrow.Table).
 *    Each rep runs both clients back to back, alternating which goes first; the reps of an operation are
 *    spread over several rounds so that a burst of load on the machine does not land on one operation.
 * 2. Server throughput: autocannon with concurrent connections for BENCH_SECONDS (default 30), a mix of
 *    list / describe / count / query requests; must finish with zero errors. Reports requests/s and p99.
 *
 * Knobs: BENCH_SECONDS (throughput duration, 30), BENCH_REST_ROWS (rows of the table, 20,000),
 * BENCH_REPS (latency repetitions per operation, 201), BENCH_CONNECTIONS (concurrent connections, 8).
 * Quick run: `BENCH_SECONDS=3 BENCH_REPS=15 npm run bench -- rest`.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import * as lancedb from '@lancedb/lancedb'
import * as arrow from 'apache-arrow'
import { batchOf, float32Vectors, tableOf } from '../../src/core/arrow'
import { connectNamespace } from '../../src/core/namespace/connect'
import '../../src/core/namespace/dir'
import { RestNamespaceClient } from '../../src/core/namespace/rest'
import { count, envInt, median, ms, ratio, verdict, spawnServer, type BenchContext, type Report, type Section, type ServerProcess } from './lib'

interface AutocannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number; average: number }
  errors: number
  timeouts: number
  non2xx: number
  duration: number
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>
// autocannon ships no types; this is the part we use.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as Autocannon

const KEY = 'bench-key-5f3a9c'
const TARGET = 1.2
/** The reps of each operation are split over this many rounds (operations interleaved between rounds). */
const ROUNDS = 4
const WARMUP = 10

/** One rep's input, the same for both clients (e.g. the page offset). */
type Op = (rep: number) => Promise<unknown>

interface Paired {
  ours: number[]
  theirs: number[]
  ratios: number[]
}

/** `reps` paired runs of `ours` and `theirs`, back to back, alternating which goes first (ABBA). */
async function runPaired(ours: Op, theirs: Op, into: Paired, firstRep: number, reps: number): Promise<void> {
  for (let rep = firstRep; rep < firstRep + reps; rep++) {
    let to: number
    let tb: number
    if (rep % 2 === 0) {
      to = await timed(ours, rep)
      tb = await timed(theirs, rep)
    } else {
      tb = await timed(theirs, rep)
      to = await timed(ours, rep)
    }
    into.ours.push(to)
    into.theirs.push(tb)
    into.ratios.push(to / tb)
  }
}

async function timed(op: Op, rep: number): Promise<number> {
  const start = performance.now()
  await op(rep)
  return performance.now() - start
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const i = (sorted.length - 1) * q
  const lo = Math.floor(i)
  return sorted[lo]! + (sorted[Math.ceil(i)]! - sorted[lo]!) * (i - lo)
}

async function makeCatalog(root: string, rows: number): Promise<void> {
  const client = await connectNamespace('dir', { root, create: 'true' })
  try {
    await client.createNamespace(['sales'])
    await client.createNamespace(['lab'])
    const dim = 64
    const batchRows = 5_000
    const batch = (start: number, n: number) =>
      batchOf({
        id: arrow.makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt(start + i))),
        label: arrow.vectorFromArray(Array.from({ length: n }, (_, i) => `label ${start + i}`), new arrow.Utf8()),
        score: arrow.makeVector(Float64Array.from({ length: n }, (_, i) => ((start + i) % 97) / 7)),
        vector: float32Vectors(Float32Array.from({ length: n * dim }, (_, i) => (i % 1000) / 1000), dim),
      })
    const id = { namespace: [], name: 'items' }
    await client.createTable(id, tableOf([batch(0, Math.min(batchRows, rows))]))
    for (let start = batchRows; start < rows; start += batchRows) await client.appendRows(id, tableOf([batch(start, Math.min(batchRows, rows - start))]))
    for (let i = 0; i < 20; i++) await client.createTable({ namespace: ['sales'], name: `t${String(i).padStart(2, '0')}` }, tableOf([batch(0, 10)]))
  } finally {
    await client.close()
  }
}

async function run({ log }: BenchContext): Promise<Report> {
  const seconds = envInt('BENCH_SECONDS', 30)
  const rows = envInt('BENCH_REST_ROWS', 20_000)
  const reps = envInt('BENCH_REPS', 201)
  const connections = envInt('BENCH_CONNECTIONS', 8)
  const root = await mkdtemp(join(tmpdir(), 'lcb-bench-rest-'))
  let server: ServerProcess | undefined
  try {
    log(`making a catalog of ${count(rows)} rows`)
    await makeCatalog(root, rows)
    server = await spawnServer(['--root', root, '--api-key', KEY])
    const ours = new RestNamespaceClient({ uri: server.url, headers: { 'x-api-key': KEY } })
    const theirs = await lancedb.connectNamespace('rest', { uri: server.url, headers: { 'x-api-key': KEY } })
    const id = { namespace: [], name: 'items' }
    // The same offset for both clients in a rep; spread over the table (7919 is prime).
    const offsetOf = (rep: number) => (rep * 7919) % Math.max(1, rows - 100)
    const ops: Array<[string, Op, Op]> = [
      ['list namespaces', () => ours.listNamespaces([]), () => theirs.listNamespaces([])],
      ['list tables (20)', () => ours.listTables(['sales']), () => theirs.tableNames(['sales'])],
      [
        'describe (schema + version + row count)',
        () => ours.describeTable(id),
        async () => {
          const t = await theirs.openTable('items')
          await Promise.all([t.schema(), t.version(), t.countRows()])
        },
      ],
      [
        'page of 100 rows → arrow.Table (lancedb: openTable + query)',
        // Decoded like lancedb's toArrow(), so both end with the same object (the app itself passes the bytes on).
        async (rep) => arrow.tableFromIPC(await ours.readPage(id, { offset: offsetOf(rep), limit: 100 })),
        async (rep) => {
          const t = await theirs.openTable('items')
          return t.query().offset(offsetOf(rep)).limit(100).toArrow()
        },
      ],
    ]
    // Sanity: both clients read the same rows.
    const [mine, their] = (await Promise.all([ops[3]![1](1), ops[3]![2](1)])) as [arrow.Table, arrow.Table]
    if (mine.numRows !== their.numRows || String(mine.getChild('id')?.get(0)) !== String(their.getChild('id')?.get(0)))
      throw new Error(`the two clients read different pages (${mine.numRows} vs ${their.numRows} rows)`)
    const load = [loadavg()[0]!]
    const results = ops.map((): Paired => ({ ours: [], theirs: [], ratios: [] }))
    for (const [op, a, b] of ops) {
      log(`latency: warm-up ${op}`)
      // Rep numbers past the measured ones: the warm-up reads other pages than the measured reps.
      for (let w = 0; w < WARMUP; w++) await runPaired(a, b, { ours: [], theirs: [], ratios: [] }, reps + w, 1)
    }
    for (let round = 0; round < ROUNDS; round++) {
      const first = Math.floor((reps * round) / ROUNDS)
      const n = Math.floor((reps * (round + 1)) / ROUNDS) - first
      log(`latency: round ${round + 1}/${ROUNDS} (${n} reps per operation)`)
      for (const [i, [, a, b]] of ops.entries()) await runPaired(a, b, results[i]!, first, n)
    }
    load.push(loadavg()[0]!)
    const latency: (string | number)[][] = ops.map(([op], i) => {
      const r = results[i]!
      const mid = median(r.ratios)
      return [op, ms(median(r.ours)), ms(median(r.theirs)), ratio(mid), `${quantile(r.ratios, 0.25).toFixed(2)}–${quantile(r.ratios, 0.75).toFixed(2)}`, verdict(mid, TARGET)]
    })
    await ours.close()
    theirs.close()

    log(`throughput: ${connections} connections for ${seconds} s`)
    const headers = { 'x-api-key': KEY, 'content-type': 'application/json' }
    const result = await autocannon({
      url: server.url,
      connections,
      duration: seconds,
      timeout: 30,
      requests: [
        { method: 'GET', path: '/v1/namespace/sales/table/list?delimiter=%24', headers },
        { method: 'POST', path: '/v1/table/items/describe?delimiter=%24&load_detailed_metadata=true', headers, body: '{"id":["items"]}' },
        { method: 'GET', path: '/v1/table/items/count_rows?delimiter=%24', headers },
        { method: 'POST', path: '/v1/table/items/query?delimiter=%24', headers, body: `{"id":["items"],"k":100,"vector":{},"offset":${Math.floor(rows / 2)}}` },
        { method: 'GET', path: '/v1/tables', headers },
      ],
    })
    const errors = result.errors + result.timeouts
    const clean = errors === 0 && result.non2xx === 0
    return {
      notes: [
        `our server (\`npm run serve\`, its own process) on loopback over a dir catalog: a ${count(rows)}-row table {id, label, score, vector[64]} and 20 small tables in one namespace`,
        `latency: ${reps} reps per operation after ${WARMUP} warm-up reps, in ${ROUNDS} rounds; each rep runs both clients back to back (ABBA order, same offset); ratio = median of per-rep ratios (IQR = its 25th–75th percentiles); target ours ≤ ${TARGET}× @lancedb/lancedb's REST client`,
        `each operation is one HTTP request on both sides: lancedb's openTable sends a describe and reads the table's files itself; our describe asks for the details (schema, version, num_rows) and our page asks for an Arrow stream`,
        `machine load (1-min load average, 2 cores, shared with other work): ${load.map((l) => l.toFixed(1)).join(' → ')} during the latency runs`,
        `throughput: autocannon, ${connections} connections × ${seconds} s, cycling list tables / describe (detailed) / count_rows / query k=100 / GET /v1/tables`,
      ],
      tables: [
        { title: 'Latency: our RestNamespaceClient vs @lancedb/lancedb connectNamespace("rest")', columns: ['operation', 'ours ms', 'lancedb ms', 'ratio', 'ratio IQR', 'verdict'], rows: latency },
        {
          title: 'Server throughput',
          columns: ['connections', 'seconds', 'requests/s', 'p50 ms', 'p99 ms', 'requests', 'errors', 'non-2xx', 'verdict'],
          rows: [[connections, seconds, Math.round(result.requests.average), result.latency.p50, result.latency.p99, count(result.requests.total), errors, result.non2xx, clean ? 'ok (zero errors)' : '**errors**']],
        },
      ],
    }
  } finally {
    if (server && server.child.exitCode === null) {
      const exited = new Promise((resolve) => server!.child.once('exit', resolve))
      server.child.kill('SIGTERM')
      await exited
    }
    await rm(root, { recursive: true, force: true })
  }
}

export const section: Section = { title: 'REST: our client and server vs @lancedb/lancedb on loopback', run }
