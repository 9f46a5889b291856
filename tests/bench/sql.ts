/**
 * SQL over a catalog (#39): TPC-H-like queries through our engine (src/core/sql: DuckDB reading Lance tables by name
 * through the contract's `sql/run` + `sql/page`, as the app does) versus DuckDB over the same data in Parquet
 * (`read_parquet`, polars-written), each side with the same DuckDB threads:
 * - Q1 (scan + group by), Q6 (filter + sum) and a join of lineitem with orders, the first time (a fresh engine:
 *   nothing cached; target ≤ 3×) and again on the same table versions (target ≤ 1.2×);
 * - where a first run's time goes: Lance's read of the columns the query needs (a bare lancedb scan of them), the
 *   hand-over into DuckDB (the rest of the load), DuckDB's own work (the cached run);
 * - a query touching 2 columns of the rows × 768-d table of bench/data.ts versus a bare lancedb scan of those 2
 *   columns (target ≤ 1.5×: the vectors are never read).
 * Knobs: BENCH_SQL_ROWS (lineitem rows, 1,000,000; orders get a quarter), BENCH_SQL_REPS (5), BENCH_ROWS / BENCH_DIM
 * for the vector table (1,000,000 × 768). Quick run: `BENCH_SQL_ROWS=200000 BENCH_ROWS=100000 npm run bench -- sql`.
 */
import { existsSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import * as lancedb from '@lancedb/lancedb'
import { DateDay, Utf8, makeData, makeVector, tableToIPC, vectorFromArray, type Table } from 'apache-arrow'
import type { ConnectionInfo, Result, SqlQueryInfo } from '../../src/contract'
import { batchOf, seededRandom, tableOf } from '../../src/core/arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { CatalogService, MemoryRecentsStore } from '../../src/core/service'
import { sqlLimitsFromEnv } from '../../src/core/sql/instance'
import { BENCH_TABLE, ensureRowsCatalog } from './data'
import { bigTables } from './sql-big'
import { count, envInt, median, ms, ratio, time, verdict, type BenchContext, type Section } from './lib'

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const pl = createRequire(__filename)('nodejs-polars') as any

const CHUNK = 100_000
const FLAGS = ['A', 'N', 'R']
const STATUS = ['F', 'O']
const PRIORITIES = ['1-URGENT', '2-HIGH', '3-MEDIUM', '4-NOT SPECIFIED', '5-LOW']

function lineitem(first: number, n: number, orders: number, random: () => number): Table {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!
  return tableOf([
    batchOf({
      l_orderkey: makeVector(BigInt64Array.from({ length: n }, () => BigInt(Math.floor(random() * orders)))),
      l_partkey: makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt((first + i) % 200_000))),
      l_quantity: makeVector(Float64Array.from({ length: n }, () => 1 + Math.floor(random() * 50))),
      l_extendedprice: makeVector(Float64Array.from({ length: n }, () => Math.round(random() * 10_000_000) / 100)),
      l_discount: makeVector(Float64Array.from({ length: n }, () => Math.floor(random() * 11) / 100)),
      l_tax: makeVector(Float64Array.from({ length: n }, () => Math.floor(random() * 9) / 100)),
      l_returnflag: vectorFromArray(Array.from({ length: n }, () => pick(FLAGS)), new Utf8()),
      l_linestatus: vectorFromArray(Array.from({ length: n }, () => pick(STATUS)), new Utf8()),
      l_shipdate: makeVector(makeData({ type: new DateDay(), length: n, data: Int32Array.from({ length: n }, () => 8036 + Math.floor(random() * 2526)) })),
      l_comment: vectorFromArray(Array.from({ length: n }, (_, i) => `comment ${first + i} ${pick(PRIORITIES)}`), new Utf8()),
    }),
  ])
}

function orders(first: number, n: number, random: () => number): Table {
  return tableOf([
    batchOf({
      o_orderkey: makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt(first + i))),
      o_custkey: makeVector(BigInt64Array.from({ length: n }, () => BigInt(Math.floor(random() * 150_000)))),
      o_orderdate: makeVector(makeData({ type: new DateDay(), length: n, data: Int32Array.from({ length: n }, () => 8036 + Math.floor(random() * 2400)) })),
      o_orderpriority: vectorFromArray(Array.from({ length: n }, () => PRIORITIES[Math.floor(random() * 5)]!), new Utf8()),
      o_totalprice: makeVector(Float64Array.from({ length: n }, () => Math.round(random() * 50_000_000) / 100)),
    }),
  ])
}

/** The Lance catalog (`tpch.lineitem`, `tpch.orders`) and the same rows as Parquet files, generated once. */
export async function ensureTpch(ctx: BenchContext, rows: number): Promise<{ root: string; parquet: { lineitem: string; orders: string } }> {
  const root = join(ctx.dir, `tpch-${rows}`)
  const parquet = { lineitem: join(ctx.dir, `tpch-${rows}-lineitem.parquet`), orders: join(ctx.dir, `tpch-${rows}-orders.parquet`) }
  if (existsSync(`${root}.ready`)) return { root, parquet }
  ctx.log(`generating ${count(rows)} lineitem rows and ${count(rows / 4)} orders (once)…`)
  const client = await DirNamespaceClient.open(root, { create: true })
  await client.createNamespace(['tpch'])
  const random = seededRandom(7)
  for (const [name, total, make] of [
    ['lineitem', rows, (first: number, n: number) => lineitem(first, n, rows / 4, random)],
    ['orders', rows / 4, (first: number, n: number) => orders(first, n, random)],
  ] as const) {
    const parts: Table[] = []
    for (let first = 0; first < total; first += CHUNK) {
      const data = make(first, Math.min(CHUNK, total - first))
      parts.push(data)
      if (first === 0) await client.createTable({ namespace: ['tpch'], name }, data)
      else await client.appendRows({ namespace: ['tpch'], name }, data)
    }
    pl.readIPC(Buffer.from(tableToIPC(tableOf(parts.flatMap((p) => p.batches)), 'file'))).writeParquet(parquet[name])
  }
  await client.close()
  await writeFile(`${root}.ready`, new Date().toISOString())
  return { root, parquet }
}

const Q1 = `SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS sum_base_price,
  sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) AS sum_charge,
  avg(l_quantity) AS avg_qty, avg(l_extendedprice) AS avg_price, avg(l_discount) AS avg_disc, count(*) AS count_order
FROM LINEITEM WHERE l_shipdate <= DATE '1998-12-01' - INTERVAL 90 DAY GROUP BY l_returnflag, l_linestatus ORDER BY l_returnflag, l_linestatus`
const Q6 = `SELECT sum(l_extendedprice * l_discount) AS revenue FROM LINEITEM
WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount >= 0.05 AND l_discount <= 0.07 AND l_quantity < 24`
const JOIN = `SELECT o_orderpriority, count(*) AS n, sum(l_extendedprice) AS revenue FROM ORDERS JOIN LINEITEM ON l_orderkey = o_orderkey
WHERE o_orderdate >= DATE '1995-01-01' GROUP BY o_orderpriority ORDER BY o_orderpriority`
const QUERIES = { Q1, Q6, join: JOIN }
/** The columns each query reads (for the bare Lance read of the breakdown). */
const COLUMNS: Record<keyof typeof QUERIES, { lineitem: string[]; orders?: string[] }> = {
  Q1: { lineitem: ['l_returnflag', 'l_linestatus', 'l_quantity', 'l_extendedprice', 'l_discount', 'l_tax', 'l_shipdate'] },
  Q6: { lineitem: ['l_extendedprice', 'l_discount', 'l_shipdate', 'l_quantity'] },
  join: { lineitem: ['l_orderkey', 'l_extendedprice'], orders: ['o_orderkey', 'o_orderdate', 'o_orderpriority'] },
}

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(JSON.stringify(result.error))
  return result.value as T
}

/** A fresh service with the catalog open and its engine started (nothing of the catalog cached yet). */
async function freshService(root: string): Promise<{ service: CatalogService; connection: ConnectionInfo }> {
  const service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
  const connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  value(await service.dispatch('sql/run', { connectionId: connection.id, sql: 'SELECT 1' }))
  return { service, connection }
}

/** A query through the contract, every row paged out, as the app shows it. */
async function ours(service: CatalogService, connectionId: string, sql: string): Promise<void> {
  const info = value<SqlQueryInfo>(await service.dispatch('sql/run', { connectionId, sql }))
  for (let offset = 0; ; offset += 1000) {
    value(await service.dispatch('sql/page', { queryId: info.queryId, offset, limit: 1000 }))
    const status = value<SqlQueryInfo>(await service.dispatch('sql/status', { queryId: info.queryId }))
    if (status.done && offset + 1000 >= (status.rowCount ?? 0)) break
  }
  value(await service.dispatch('sql/close', { queryId: info.queryId }))
}

/** Lance's batch length of our loads (src/core/sql/tableCache.ts), for the bare scans read as they are. */
const LOAD_BATCH_ROWS = 16_384

/**
 * A bare lancedb scan of `columns`: Lance's default stream (1,024-row batches), or `batchRows` per batch through
 * `execute`, as our loads read (its typings call it protected).
 */
async function bareScan(root: string, namespace: string[], name: string, columns: string[], batchRows?: number): Promise<void> {
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable(name, namespace)
  const query = table.query().select(columns)
  const batches = batchRows ? (query as unknown as { execute(o: { maxBatchLength: number }): AsyncIterable<unknown> }).execute({ maxBatchLength: batchRows }) : query
  for await (const batch of batches) void batch
  table.close()
  db.close()
}

export const section: Section = {
  title: 'SQL over a catalog (#39): DuckDB reading Lance by name vs DuckDB over Parquet',
  async run(ctx) {
    const rows = envInt('BENCH_SQL_ROWS', 1_000_000)
    const reps = envInt('BENCH_SQL_REPS', 5)
    const threads = sqlLimitsFromEnv().threads
    const { root, parquet } = await ensureTpch(ctx, rows)
    const reference = await DuckDBInstance.create(':memory:', { threads: String(threads) })
    const parquetSql = (sql: string) => sql.replaceAll('LINEITEM', `read_parquet('${parquet.lineitem}')`).replaceAll('ORDERS', `read_parquet('${parquet.orders}')`)
    const oursSql = (sql: string) => sql.replaceAll('LINEITEM', 'tpch.lineitem').replaceAll('ORDERS', 'tpch.orders')
    const bare = async (sql: string) => {
      const c = await reference.connect()
      await c.runAndReadAll(parquetSql(sql))
      c.closeSync()
    }
    const rowsOut: (string | number)[][] = []
    const breakdown: (string | number)[][] = []
    for (const [name, sql] of Object.entries(QUERIES) as [keyof typeof QUERIES, string][]) {
      const firsts: number[] = []
      const agains: number[] = []
      const parquets: number[] = []
      const lances: number[] = []
      for (let r = 0; r < reps; r++) {
        const { service, connection } = await freshService(root)
        const [first] = await time(() => ours(service, connection.id, oursSql(sql)))
        const [again] = await time(() => ours(service, connection.id, oursSql(sql)))
        await service.closeAll()
        const [p] = await time(() => bare(sql))
        const [lance] = await time(async () => {
          await bareScan(root, ['tpch'], 'lineitem', COLUMNS[name].lineitem, LOAD_BATCH_ROWS)
          if (COLUMNS[name].orders) await bareScan(root, ['tpch'], 'orders', COLUMNS[name].orders!, LOAD_BATCH_ROWS)
        })
        firsts.push(first)
        agains.push(again)
        parquets.push(p)
        lances.push(lance)
      }
      const [f, a, p, l] = [median(firsts), median(agains), median(parquets), median(lances)]
      rowsOut.push([name, ms(p), ms(f), ratio(f / p), verdict(f / p, 3), ms(a), ratio(a / p), verdict(a / p, 1.2)])
      breakdown.push([name, ms(f), ms(l), ms(Math.max(0, f - l - a)), ms(a)])
      ctx.log(`${name}: parquet ${ms(p)} ms, first ${ms(f)} ms, again ${ms(a)} ms`)
    }
    reference.closeSync()

    // 2 columns of the wide vector table vs a bare lancedb scan of them.
    const vrows = envInt('BENCH_ROWS', 1_000_000)
    const dim = envInt('BENCH_DIM', 768)
    const vroot = await ensureRowsCatalog(ctx, { rows: vrows, dim })
    const narrow: number[] = []
    const bareNarrow: number[] = []
    const bareWide: number[] = []
    for (let r = 0; r < reps; r++) {
      const { service, connection } = await freshService(vroot)
      const [o] = await time(() => ours(service, connection.id, `SELECT count(*), avg(score), max(id) FROM ${BENCH_TABLE.namespace.join('.')}.${BENCH_TABLE.name}`))
      await service.closeAll()
      const [b] = await time(() => bareScan(vroot, [...BENCH_TABLE.namespace], BENCH_TABLE.name, ['id', 'score']))
      const [w] = await time(() => bareScan(vroot, [...BENCH_TABLE.namespace], BENCH_TABLE.name, ['id', 'score'], LOAD_BATCH_ROWS))
      narrow.push(o)
      bareNarrow.push(b)
      bareWide.push(w)
    }
    const [no, nb, nw] = [median(narrow), median(bareNarrow), median(bareWide)]
    const big = await bigTables(ctx, reps)
    return {
      notes: [
        `lineitem ${count(rows)} rows (10 columns), orders ${count(rows / 4)}; DuckDB threads ${threads} on both sides; medians of ${reps} runs, a fresh engine for each first run`,
        'Parquet written by polars (nodejs-polars), read with read_parquet from the OS cache; our side through sql/run + sql/page (every row paged out as Arrow)',
        `vector table: ${count(vrows)} rows × ${dim}-d (bench/data.ts)`,
        'Lance read (breakdown) = a bare lancedb scan of the columns in 16,384-row batches, as our loads read (no filter)',
        ...big.notes,
      ],
      tables: [
        { title: 'Queries: ours vs DuckDB over Parquet', columns: ['query', 'Parquet ms', 'first ms', 'first ÷ Parquet', 'target', 'again ms', 'again ÷ Parquet', 'target'], rows: rowsOut },
        { title: 'Where a first run goes (ms)', columns: ['query', 'first', 'Lance read (bare scan of the columns)', 'hand-over (rest of the load)', 'DuckDB (the cached run)'], rows: breakdown },
        {
          title: '2 columns of a wide vector table',
          columns: ['query', 'bare lancedb scan ms (1,024-row batches)', 'bare scan ms (16,384-row batches)', 'ours ms', 'ratio to the faster bare scan', 'target'],
          rows: [['count/avg/max over id, score', ms(nb), ms(nw), ms(no), ratio(no / Math.min(nb, nw)), verdict(no / Math.min(nb, nw), 1.5)]],
        },
        ...big.tables,
      ],
    }
  },
}
