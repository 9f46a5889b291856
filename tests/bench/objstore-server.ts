/**
 * Object-store server throughput (a section of `npm run bench -- objstore-server`): 1, 2 and 3 `npm run serve`
 * processes over ONE az:// catalog in Azurite (Microsoft's Azure Storage emulator, in memory, on loopback), the
 * credentials given only as `--storage-option` flags. For each process count, autocannon drives the same mix of
 * reads — list tables, describe (detailed), count_rows, a 100-row query at the middle of the table, GET /v1/tables —
 * with the connections spread evenly over the processes (as a round-robin load balancer would), for
 * BENCH_SECONDS. Reported: requests/s (sum over processes), p99 (the worst process), errors (must be 0).
 *
 * Knobs: BENCH_SECONDS (per process count, 10), BENCH_OBJSTORE_ROWS (rows of the big table, 20,000),
 * BENCH_CONNECTIONS (total concurrent connections, 6). Quick run: `BENCH_SECONDS=3 npm run bench -- objstore-server`.
 */
import { cpus, loadavg } from 'node:os'
import * as arrow from 'apache-arrow'
import { batchOf, float32Vectors, tableOf } from '../../src/core/arrow'
import { NO_CLOUD_ENV, startAzurite } from '../helpers/azurite'
import { count, envInt, spawnServer, type Report, type Section, type ServerProcess } from './lib'

interface AutocannonResult {
  requests: { average: number; total: number }
  latency: { p50: number; p99: number }
  errors: number
  timeouts: number
  non2xx: number
}
// autocannon ships no types; this is the part we use.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: Record<string, unknown>) => Promise<AutocannonResult>

const KEY = 'bench-key-objstore-7d21'
const ARROW = 'application/vnd.apache.arrow.stream'

type Server = ServerProcess

function spawnObjstoreServer(root: string, storageOptions: Record<string, string>): Promise<Server> {
  const flags = Object.entries(storageOptions).flatMap(([k, v]) => ['--storage-option', `${k}=${v}`])
  return spawnServer(['--root', root, '--api-key', KEY, ...flags], { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...NO_CLOUD_ENV })
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return
  const exited = new Promise((resolve) => server.child.once('exit', resolve))
  server.child.kill('SIGTERM')
  await exited
}

function bigTable(rows: number): arrow.Table {
  const dim = 16
  return tableOf([
    batchOf({
      id: arrow.makeVector(BigInt64Array.from({ length: rows }, (_, i) => BigInt(i))),
      label: arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => `item ${i}`), new arrow.Utf8()),
      vector: float32Vectors(Float32Array.from({ length: rows * dim }, (_, i) => (i % 97) / 97), dim),
    }),
  ])
}

async function post(url: string, path: string, body: string | Uint8Array, type: string): Promise<void> {
  const response = await fetch(`${url}${path}`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': type }, body })
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`)
}

export const section: Section = {
  title: 'Object-store server: throughput of 1, 2 and 3 processes over one az:// catalog (Azurite)',
  async run({ log }): Promise<Report> {
    Object.assign(process.env, NO_CLOUD_ENV)
    const seconds = envInt('BENCH_SECONDS', 10)
    const rows = envInt('BENCH_OBJSTORE_ROWS', 20_000)
    const connections = envInt('BENCH_CONNECTIONS', 6)
    const az = await startAzurite()
    const servers: Server[] = []
    try {
      const root = await az.freshRoot('bench')
      servers.push(await spawnObjstoreServer(root, az.storageOptions))
      log(`seeding ${count(rows)} rows and 10 small tables`)
      await post(servers[0]!.url, '/v1/table/items/create', arrow.tableToIPC(bigTable(rows), 'stream'), ARROW)
      await post(servers[0]!.url, '/v1/namespace/sales/create', '{}', 'application/json')
      for (let i = 0; i < 10; i++) await post(servers[0]!.url, `/v1/table/sales%24t${i}/create`, arrow.tableToIPC(bigTable(10), 'stream'), ARROW)
      const headers = { 'x-api-key': KEY, 'content-type': 'application/json' }
      const requests = [
        { method: 'GET', path: '/v1/namespace/sales/table/list', headers },
        { method: 'POST', path: '/v1/table/items/describe?load_detailed_metadata=true', headers, body: '{}' },
        { method: 'GET', path: '/v1/table/items/count_rows', headers },
        { method: 'POST', path: '/v1/table/items/query', headers, body: `{"k":100,"vector":{},"offset":${Math.floor(rows / 2)}}` },
        { method: 'GET', path: '/v1/tables', headers },
      ]
      const table: (string | number)[][] = []
      for (const n of [1, 2, 3]) {
        while (servers.length < n) servers.push(await spawnObjstoreServer(root, az.storageOptions))
        log(`${n} process(es): ${connections} connections for ${seconds} s`)
        const results = await Promise.all(
          servers.slice(0, n).map((s, i) =>
            autocannon({ url: s.url, connections: Math.floor(connections / n) + (i < connections % n ? 1 : 0), duration: seconds, timeout: 30, requests }),
          ),
        )
        const errors = results.reduce((sum, r) => sum + r.errors + r.timeouts, 0)
        const non2xx = results.reduce((sum, r) => sum + r.non2xx, 0)
        const rps = results.reduce((sum, r) => sum + r.requests.average, 0)
        const p50 = Math.max(...results.map((r) => r.latency.p50))
        const p99 = Math.max(...results.map((r) => r.latency.p99))
        const total = results.reduce((sum, r) => sum + r.requests.total, 0)
        table.push([n, connections, seconds, Math.round(rps), p50, p99, count(total), errors, non2xx, errors === 0 && non2xx === 0 ? 'ok (zero errors)' : '**errors**'])
      }
      return {
        notes: [
          `catalog: az://<container>/bench in Azurite 3.35.0 (in memory, loopback): a ${count(rows)}-row table {id, label, vector[16]} at the root and 10 small tables in one namespace`,
          `each server is \`npm run serve -- --root az://… --storage-option …\` in its own process; no lock between them (Lance's conditional commits)`,
          `autocannon in the bench process, ${connections} connections split evenly over the processes, cycling list tables / describe (detailed) / count_rows / query k=100 at offset ${count(Math.floor(rows / 2))} / GET /v1/tables`,
          `requests/s is the sum over the processes; p50 / p99 are those of the slowest process`,
          `machine: ${cpus().length} cores shared by the servers, the emulator and autocannon (load average at the end ${loadavg()[0]!.toFixed(1)}): with more processes than cores, more processes cannot add throughput here; on real object storage the servers' CPU is what scales`,
        ],
        tables: [{ title: 'Server throughput over one az:// catalog', columns: ['processes', 'connections', 'seconds', 'requests/s', 'p50 ms', 'p99 ms', 'requests', 'errors', 'non-2xx', 'verdict'], rows: table }],
      }
    } finally {
      for (const s of servers) await stopServer(s)
      await az.stop()
    }
  },
}
