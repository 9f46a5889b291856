/**
 * REST benchmark (a section of `npm run bench`; also runs alone: `npx tsx bench/rest.ts`).
 *
 * 1. Latency of list / describe / page through our RestNamespaceClient vs @lancedb/lancedb's own REST
 *    client (`connectNamespace("rest")`: listNamespaces, tableNames, openTable + query), both against our
 *    server on loopback. Target: ours ≤ 1.2× theirs (median of alternating runs).
 * 2. Server throughput: autocannon with concurrent connections for BENCH_SECONDS (default 30), a mix of
 *    list / describe / count / query requests; must finish with zero errors. Reports requests/s and p99.
 *
 * Knobs: BENCH_SECONDS (throughput duration), BENCH_ROWS (rows of the table, default 20000),
 * BENCH_REPS (latency repetitions per operation, default 60), BENCH_CONNECTIONS (default 8).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import * as arrow from 'apache-arrow'
import { batchOf, float32Vectors, tableOf } from '../src/core/arrow'
import { connectNamespace } from '../src/core/namespace/connect'
import '../src/core/namespace/dir'
import { RestNamespaceClient } from '../src/core/namespace/rest'

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
const env = (name: string, fallback: number) => {
  const n = Number(process.env[name])
  return Number.isFinite(n) && n > 0 ? n : fallback
}

export interface RestBenchResult {
  latency: Array<{ op: string; oursMs: number; lancedbMs: number; ratio: number; ok: boolean }>
  throughput: { seconds: number; connections: number; requestsPerSecond: number; p99Ms: number; errors: number; non2xx: number; ok: boolean }
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

async function spawnServer(root: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '../src/server/cli.ts'), '--root', root, '--port', '0', '--api-key', KEY], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening on (\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
  return { url, child }
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}

/** Alternate A and B so drift on a shared machine hits both sides alike; return medians. */
async function compare(reps: number, ours: () => Promise<unknown>, theirs: () => Promise<unknown>): Promise<[number, number]> {
  for (let i = 0; i < 5; i++) {
    await ours()
    await theirs()
  }
  const a: number[] = []
  const b: number[] = []
  for (let i = 0; i < reps; i++) {
    const order = i % 2 === 0
    for (const side of order ? ['a', 'b'] : ['b', 'a']) {
      const t = performance.now()
      await (side === 'a' ? ours() : theirs())
      ;(side === 'a' ? a : b).push(performance.now() - t)
    }
  }
  return [median(a), median(b)]
}

export async function runRestBench(log: (line: string) => void = console.log): Promise<RestBenchResult> {
  const seconds = env('BENCH_SECONDS', 30)
  const rows = env('BENCH_ROWS', 20_000)
  const reps = env('BENCH_REPS', 60)
  const connections = env('BENCH_CONNECTIONS', 8)
  const root = await mkdtemp(join(tmpdir(), 'lcb-bench-rest-'))
  let server: { url: string; child: ChildProcess } | undefined
  try {
    await makeCatalog(root, rows)
    server = await spawnServer(root)
    log(`## REST (our server on loopback, ${rows} rows, ${reps} reps per op)`)
    const ours = new RestNamespaceClient({ uri: server.url, headers: { 'x-api-key': KEY } })
    const theirs = await lancedb.connectNamespace('rest', { uri: server.url, headers: { 'x-api-key': KEY } })
    const id = { namespace: [], name: 'items' }
    let offset = 0
    const nextOffset = () => (offset = (offset + 7919) % Math.max(1, rows - 100))

    const ops: Array<[string, () => Promise<unknown>, () => Promise<unknown>]> = [
      ['list namespaces', () => ours.listNamespaces([]), () => theirs.listNamespaces([])],
      ['list tables (20)', () => ours.listTables(['sales']), () => theirs.tableNames(['sales'])],
      [
        'describe (schema + version + rows)',
        () => ours.describeTable(id),
        async () => {
          const t = await theirs.openTable('items')
          await Promise.all([t.schema(), t.version(), t.countRows()])
        },
      ],
      [
        'page (100 rows, open + query)',
        () => ours.readPage(id, { offset: nextOffset(), limit: 100 }),
        async () => {
          const t = await theirs.openTable('items')
          await t.query().offset(nextOffset()).limit(100).toArrow()
        },
      ],
    ]
    const latency: RestBenchResult['latency'] = []
    log('| operation | ours (ms, median) | lancedb REST (ms, median) | ratio | target ≤ 1.2× |')
    log('|---|---|---|---|---|')
    for (const [op, a, b] of ops) {
      const [oursMs, lancedbMs] = await compare(reps, a, b)
      const ratio = oursMs / lancedbMs
      latency.push({ op, oursMs, lancedbMs, ratio, ok: ratio <= 1.2 })
      log(`| ${op} | ${oursMs.toFixed(2)} | ${lancedbMs.toFixed(2)} | ${ratio.toFixed(2)}× | ${ratio <= 1.2 ? 'ok' : 'MISSED'} |`)
    }
    await ours.close()
    theirs.close()

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
        { method: 'POST', path: '/v1/table/items/query?delimiter=%24', headers, body: '{"id":["items"],"k":100,"vector":{},"offset":5000}' },
        { method: 'GET', path: '/v1/tables', headers },
      ],
    })
    const errors = result.errors + result.timeouts
    const throughput = {
      seconds,
      connections,
      requestsPerSecond: result.requests.average,
      p99Ms: result.latency.p99,
      errors,
      non2xx: result.non2xx,
      ok: errors === 0 && result.non2xx === 0,
    }
    log(`\nserver throughput: ${connections} connections × ${seconds} s, mix of list/describe/count/query/list-all`)
    log(`  ${throughput.requestsPerSecond.toFixed(0)} requests/s, p99 ${throughput.p99Ms} ms, p50 ${result.latency.p50} ms, ${result.requests.total} requests, errors ${errors}, non-2xx ${result.non2xx} → ${throughput.ok ? 'ok (zero errors)' : 'FAILED'}`)
    return { latency, throughput }
  } finally {
    if (server && server.child.exitCode === null) {
      const exited = new Promise((resolve) => server!.child.once('exit', resolve))
      server.child.kill('SIGTERM')
      await exited
    }
    await rm(root, { recursive: true, force: true })
  }
}

if (require.main === module) {
  runRestBench().then(
    (r) => process.exit(r.throughput.ok ? 0 : 1),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
