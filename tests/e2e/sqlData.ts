import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import * as lancedb from '@lancedb/lancedb'
import { Int64, Table, Utf8, vectorFromArray } from 'apache-arrow'
import { buildCatalog } from '../helpers/catalog'

/**
 * The SQL view's data (tests/e2e/sql.spec.ts, tests/desktop/sql.spec.ts): `shop.customers` (40 rows, a region each,
 * one region null) and `shop.orders` (600 rows at version 1; 150 more appended as version 2). The same rows go
 * to Parquet through DuckDB, so a test computes the expected answer with DuckDB over Parquet, not with our engine.
 */
const REGIONS = ['north', 'south', 'east', 'west', null] as const

function customers() {
  const id = Array.from({ length: 40 }, (_, i) => BigInt(i + 1))
  const region = id.map((_, i) => REGIONS[(i * 7) % REGIONS.length] ?? null)
  return { id, region }
}

function orders(from: number, count: number) {
  const id = Array.from({ length: count }, (_, i) => BigInt(from + i))
  const customer = id.map((n) => BigInt((Number(n) * 13) % 43) + 1n) // ids 1…43: three have no customer row
  const amount = id.map((n) => BigInt(((Number(n) * 7919) % 10_000) + 100))
  return { id, customer, amount }
}

const customersTable = (c = customers()) => new Table({ id: vectorFromArray(c.id, new Int64()), region: vectorFromArray(c.region, new Utf8()) })
const ordersTable = (o: ReturnType<typeof orders>) =>
  new Table({ id: vectorFromArray(o.id, new Int64()), customer_id: vectorFromArray(o.customer, new Int64()), amount: vectorFromArray(o.amount, new Int64()) })

/** The join + group-by the tests ask; `{customers}` and `{orders}` are replaced by the tables' names. */
export const JOIN_SQL = `SELECT c.region, count(*) AS orders, sum(o.amount)::BIGINT AS total
FROM {orders} AS o JOIN {customers} AS c ON o.customer_id = c.id
GROUP BY c.region
ORDER BY c.region NULLS LAST`

export const sqlFor = (orders: string, customers = 'shop.customers') => JOIN_SQL.replace('{orders}', orders).replace('{customers}', customers)

/** Build the catalog (orders at version 1, then 150 rows appended: version 2) and the Parquet files of both versions. */
export async function buildSqlCatalog(dir: string): Promise<{ root: string; parquet: { customers: string; ordersV1: string; ordersV2: string } }> {
  const root = await buildCatalog(join(dir, 'catalog'), {
    namespaces: [['shop']],
    tables: [
      { namespace: ['shop'], name: 'customers', data: customersTable() },
      { namespace: ['shop'], name: 'orders', data: ordersTable(orders(1, 600)) },
    ],
  })
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable('orders', ['shop'])
  await table.add(ordersTable(orders(601, 150)))
  table.close()
  db.close()

  const out = join(dir, 'parquet')
  await mkdir(out, { recursive: true })
  const parquet = { customers: join(out, 'customers.parquet'), ordersV1: join(out, 'orders-v1.parquet'), ordersV2: join(out, 'orders-v2.parquet') }
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  try {
    const c = customers()
    const values = (rows: string[]) => rows.join(', ')
    await connection.run(`COPY (SELECT * FROM (VALUES ${values(c.id.map((id, i) => `(${id}::BIGINT, ${c.region[i] === null ? 'NULL' : `'${c.region[i]}'`})`))}) t(id, region)) TO '${parquet.customers}' (FORMAT parquet)`)
    const orderValues = (o: ReturnType<typeof orders>) => values(o.id.map((id, i) => `(${id}::BIGINT, ${o.customer[i]}::BIGINT, ${o.amount[i]}::BIGINT)`))
    const v1 = orderValues(orders(1, 600))
    await connection.run(`COPY (SELECT * FROM (VALUES ${v1}) t(id, customer_id, amount)) TO '${parquet.ordersV1}' (FORMAT parquet)`)
    await connection.run(`COPY (SELECT * FROM (VALUES ${v1}, ${orderValues(orders(601, 150))}) t(id, customer_id, amount)) TO '${parquet.ordersV2}' (FORMAT parquet)`)
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
  return { root, parquet }
}

/** DuckDB's own answer over Parquet: each row's cells as the grid shows them (null as the grid writes it, NULL). */
export async function duckdbAnswer(sql: string): Promise<string[][]> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  try {
    const reader = await connection.runAndReadAll(sql)
    return reader.getRows().map((row) => row.map((cell) => (cell === null ? 'NULL' : String(cell))))
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

export const parquetTable = (path: string) => `read_parquet('${path.replace(/'/g, "''")}')`
