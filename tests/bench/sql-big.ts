/**
 * The sql bench's big narrow tables (#39): `big.t` of BENCH_SQL_BIG_ROWS rows (100,000,000) for `SELECT * … LIMIT
 * 100`, and `big.g` of BENCH_SQL_GROUP_ROWS rows (10,000,000) for a GROUP BY's peak memory. Two columns each, int64
 * `id` and float32 `value`, appended 1,000,000 rows at a time (one fragment each); generated once in the bench's
 * data directory.
 */
import { existsSync } from 'node:fs'
import { readdir, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { makeVector } from 'apache-arrow'
import type { ConnectionInfo, Result, SqlQueryInfo } from '../../src/contract'
import { batchOf, seededRandom, tableOf } from '../../src/core/arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { CatalogService, MemoryRecentsStore } from '../../src/core/service'
import { count, envInt, median, ms, runMeasuredChild, time, type BenchContext, type ResultTable } from './lib'

const APPEND_ROWS = 1_000_000

/** The bytes under a directory (the table's size on disk, a temp folder's use). */
export async function dirBytes(dir: string): Promise<number> {
  let total = 0
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (!entry.isFile()) continue
    total += (await stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size
  }
  return total
}

/** A catalog `narrow-<rows>` holding `big.<name>` of `rows` rows, generated once. */
export async function ensureNarrow(ctx: BenchContext, name: 't' | 'g', rows: number): Promise<string> {
  const root = join(ctx.dir, `narrow-${name}-${rows}`)
  if (existsSync(`${root}.ready`)) return root
  ctx.log(`generating big.${name}: ${count(rows)} rows × (int64, float32), appended ${count(APPEND_ROWS)} at a time (once)…`)
  const client = await DirNamespaceClient.open(root, { create: true })
  await client.createNamespace(['big'], { mode: 'exist_ok' })
  const random = seededRandom(11)
  const id = { namespace: ['big'], name }
  for (let first = 0; first < rows; first += APPEND_ROWS) {
    const n = Math.min(APPEND_ROWS, rows - first)
    const data = tableOf([
      batchOf({
        id: { vector: makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt(first + i))), nullable: false },
        value: { vector: makeVector(Float32Array.from({ length: n }, () => random())), nullable: false },
      }),
    ])
    if (first === 0) await client.createTable(id, data, { mode: 'overwrite' })
    else await client.appendRows(id, data)
    if ((first / APPEND_ROWS) % 10 === 9) ctx.log(`  ${count(first + n)} rows`)
  }
  await client.close()
  await writeFile(`${root}.ready`, new Date().toISOString())
  return root
}

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(JSON.stringify(result.error))
  return result.value as T
}

/** The target for rows shown: ≤ 300 ms. */
const within = (elapsed: number) => (elapsed <= 300 ? 'ok (≤ 300 ms)' : '**over** (target ≤ 300 ms)')

const LIMIT_SQL = 'SELECT * FROM big.t LIMIT 100'
const GROUP_SQL = 'SELECT count(*) AS groups, sum(s) AS total FROM (SELECT id, sum(value) AS s FROM big.g GROUP BY id)'

/**
 * `sql/run` then its first page of 100 rows (what the Result grid shows first), on a fresh service: `cold` starts
 * the engine with the statement, `view` after `sql/names` (what a query view asks when it opens: the engine starts
 * meanwhile), `warm` after a first statement.
 */
async function firstRows(root: string, mode: 'cold' | 'view' | 'warm'): Promise<number> {
  const service = new CatalogService({ host: 'harness', version: 'bench', recents: new MemoryRecentsStore() })
  const connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  if (mode === 'view') value(await service.dispatch('sql/names', { connectionId: connection.id }))
  if (mode === 'warm') value(await service.dispatch('sql/run', { connectionId: connection.id, sql: 'SELECT 1' }))
  const [elapsed] = await time(async () => {
    const info = value<SqlQueryInfo>(await service.dispatch('sql/run', { connectionId: connection.id, sql: LIMIT_SQL }))
    value(await service.dispatch('sql/page', { queryId: info.queryId, offset: 0, limit: 100 }))
  })
  await service.closeAll()
  return elapsed
}

/**
 * `SELECT * … LIMIT 100` over the big table (target: rows shown in ≤ 300 ms), and a GROUP BY of 10M rows into as
 * many groups in a child process under the default memory limit and under 256 MiB: its peak RSS and the most its
 * temp folder held (DuckDB's spill).
 */
export async function bigTables(ctx: BenchContext, reps: number): Promise<{ notes: string[]; tables: ResultTable[] }> {
  const bigRows = envInt('BENCH_SQL_BIG_ROWS', 100_000_000)
  const groupRows = envInt('BENCH_SQL_GROUP_ROWS', 10_000_000)
  const bigRoot = await ensureNarrow(ctx, 't', bigRows)
  const groupRoot = await ensureNarrow(ctx, 'g', groupRows)
  const cold: number[] = []
  const view: number[] = []
  const warm: number[] = []
  for (let r = 0; r < reps; r++) {
    cold.push(await firstRows(bigRoot, 'cold'))
    view.push(await firstRows(bigRoot, 'view'))
    warm.push(await firstRows(bigRoot, 'warm'))
  }
  const groups: (string | number)[][] = []
  for (const memoryMb of [1024, 256]) {
    process.env.LCB_SQL_MEMORY_MB = String(memoryMb)
    try {
      const child = await runMeasuredChild<{ maxRssMiB: number; tempPeakMiB: number; rows: number; ms: number }>(join(__dirname, 'sql-rss.ts'), [groupRoot, GROUP_SQL], 'sql-rss')
      groups.push([`${memoryMb} MiB`, child.maxRssMiB, child.tempPeakMiB, ms(child.ms), 'finished'])
    } catch (error) {
      groups.push([`${memoryMb} MiB`, '–', '–', '–', `failed: ${String(error).slice(0, 120)}`])
    } finally {
      delete process.env.LCB_SQL_MEMORY_MB
    }
    ctx.log(`GROUP BY under ${memoryMb} MiB: ${JSON.stringify(groups[groups.length - 1])}`)
  }
  const [c, v, w] = [median(cold), median(view), median(warm)]
  return {
    notes: [
      `big.t: ${count(bigRows)} rows × (int64, float32), ${((await dirBytes(bigRoot)) / 1024 ** 3).toFixed(2)} GiB on disk; big.g: ${count(groupRows)} rows, the same columns`,
      `GROUP BY: \`${GROUP_SQL}\` (${count(groupRows)} groups) in a child process, one run per limit`,
    ],
    tables: [
      {
        title: `SELECT * … LIMIT 100 over ${count(bigRows)} rows: sql/run + the first page (ms)`,
        columns: ['engine', 'ms', 'target'],
        rows: [
          ['cold (the statement starts the engine)', ms(c), within(c)],
          ['query view open (sql/names started the engine)', ms(v), within(v)],
          ['warm (after a first statement)', ms(w), within(w)],
        ],
      },
      { title: `GROUP BY over ${count(groupRows)} rows: peak memory under the SQL memory limit`, columns: ['memory limit', 'peak RSS MiB', 'temp folder peak MiB', 'ms', 'outcome'], rows: groups },
    ],
  }
}
