import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import * as lancedb from '@lancedb/lancedb'
import { Int64, Table, Utf8, vectorFromArray } from 'apache-arrow'
import type { Page } from '@playwright/test'
import type { Harness } from '../../src/harness/server'
import { buildCatalog } from '../helpers/catalog'
import { expect, makeTempDir, openApp, removeDir, startHarness, test } from '../helpers/e2e'

/**
 * The SQL view's data (tests/e2e/sql.spec.ts, sql-result.spec.ts, tests/desktop/sql.spec.ts): `shop.customers` (40 rows, a region each,
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

export type SqlParquet = Awaited<ReturnType<typeof buildSqlCatalog>>['parquet']

/** What {@link useSqlCatalog} set up: read inside a test (each is set by its hook). */
export interface SqlFixture {
  /** The file's scratch folder (the catalog and Parquet inside; removed after the file). */
  readonly dir: string
  readonly root: string
  readonly parquet: SqlParquet
  /** This test's harness on `root`, the app already open in the page. */
  readonly harness: Harness
}

/**
 * The SQL specs' set-up (tests/e2e/sql.spec.ts, sql-result.spec.ts): the catalog built once per file, a harness per
 * test with the app open, and after each test no uncaught error in the page and no Content Security Policy refusal
 * (the editor adds its styles at run time: the strict CSP must refuse none of them, SqlEditor.tsx: its shadow root).
 */
export function useSqlCatalog(prefix: string): SqlFixture {
  const state = {} as { -readonly [K in keyof SqlFixture]: SqlFixture[K] }
  let pageErrors: string[] = []
  test.beforeAll(async () => {
    test.setTimeout(120_000)
    state.dir = await makeTempDir(prefix)
    ;({ root: state.root, parquet: state.parquet } = await buildSqlCatalog(state.dir))
  })
  test.afterAll(async () => {
    await removeDir(state.dir)
  })
  test.beforeEach(async ({ page }) => {
    state.harness = await startHarness({ root: state.root })
    pageErrors = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) pageErrors.push(message.text())
    })
    await openApp(page, state.harness)
  })
  test.afterEach(async () => {
    await state.harness.close()
    expect(pageErrors, 'uncaught errors and CSP refusals in the page').toEqual([])
  })
  return state
}

/** The query view's editor and its status line. */
export const sqlEditor = (page: Page) => page.getByRole('textbox', { name: 'SQL' })
export const queryStatus = (page: Page) => page.getByRole('region', { name: 'Query' }).getByRole('status', { name: 'Query status' })
