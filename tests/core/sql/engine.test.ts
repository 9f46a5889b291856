import { createRequire } from 'node:module'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { DateDay, Int32, makeData, makeVector, tableFromIPC, tableToIPC, Utf8, vectorFromArray, type Table } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SQL_PAGE_META, type ConnectionInfo, type SqlExplain, type SqlNames, type SqlQueryInfo } from '../../../src/contract'
import { batchOf, tableOf } from '../../../src/core/arrow'
import { DirNamespaceClient } from '../../../src/core/namespace/dir'
import type { CatalogService } from '../../../src/core/service'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'
import { failure, openCatalog, value } from '../../helpers/service'
import { startServer } from '../../../src/server'
import { KEY } from '../../server/support'

// nodejs-polars (an independent writer) exports the same Arrow data to Parquet for the reference answers.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const pl = createRequire(__filename)('nodejs-polars') as any

const ORDERS = 5_000
const ITEMS = 20_000
const BIG = 9_007_199_254_740_993n

function orders(from: number, count: number): Table {
  return tableOf([
    batchOf({
      o_id: makeVector(BigInt64Array.from({ length: count }, (_, i) => BIG + BigInt(from + i))),
      o_cust: vectorFromArray(Array.from({ length: count }, (_, i) => (from + i) % 97), new Int32()),
      o_date: makeVector(makeData({ type: new DateDay(), length: count, data: Int32Array.from({ length: count }, (_, i) => 8000 + ((from + i) % 2000)) })),
      o_status: vectorFromArray(Array.from({ length: count }, (_, i) => ['F', 'O', 'P'][(from + i) % 3]!), new Utf8()),
    }),
  ])
}

function items(): Table {
  return tableOf([
    batchOf({
      i_order: makeVector(BigInt64Array.from({ length: ITEMS }, (_, i) => BIG + BigInt((i * 7) % ORDERS))),
      i_qty: makeVector(Float64Array.from({ length: ITEMS }, (_, i) => (i % 50) + 0.25)),
      i_flag: vectorFromArray(Array.from({ length: ITEMS }, (_, i) => (i % 11 === 0 ? null : ['A', 'N', 'R'][i % 3]!)), new Utf8()),
    }),
  ])
}

describe('SQL over a catalog (DuckDB reading Lance tables by name)', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  let reference: DuckDBInstance
  let catalogRoot: string
  const run = (sql: string) => service.dispatch('sql/run', { connectionId: connection.id, sql })
  /** Every row of a query's result, through sql/page. */
  async function rows(sql: string): Promise<unknown[][]> {
    const info = value<SqlQueryInfo>(await run(sql))
    const out: unknown[][] = []
    for (let offset = 0; ; offset += 1000) {
      const table = tableFromIPC(value<Uint8Array>(await service.dispatch('sql/page', { queryId: info.queryId, offset, limit: 1000 })))
      for (const row of table) out.push(table.schema.fields.map((f) => normal(row[f.name])))
      if (table.schema.metadata.get(SQL_PAGE_META.done) === 'true' && offset + 1000 >= Number(table.schema.metadata.get(SQL_PAGE_META.rowCount))) break
    }
    await service.dispatch('sql/close', { queryId: info.queryId })
    return out
  }
  async function expected(sql: string): Promise<unknown[][]> {
    const c = await reference.connect()
    const reader = await c.runAndReadAll(sql)
    c.closeSync()
    return reader.getRowsJS().map((row) => row.map(normal))
  }
  const normal = (v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : v instanceof Date ? v.toISOString().slice(0, 10) : typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v)

  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-')
    const root = (catalogRoot = await buildCatalog(join(base, 'catalog'), {
      namespaces: [['sales'], ['sales', 'eu'], ['odd.name']],
      tables: [
        { namespace: ['sales'], name: 'orders', data: orders(0, ORDERS) },
        { namespace: ['sales'], name: 'items', data: items() },
        { namespace: ['sales', 'eu'], name: 'orders', data: orders(0, 10) },
        { namespace: ['odd.name'], name: 'select', data: orders(0, 3) },
        { namespace: [], name: 'people', rows: 10 },
      ],
    }))
    // Version 2 of sales.orders: 1,000 more rows.
    const client = await DirNamespaceClient.open(root)
    await client.appendRows({ namespace: ['sales'], name: 'orders' }, orders(ORDERS, 1000))
    await client.close()
    ;({ service, connection } = await openCatalog(root))
    // The reference: DuckDB over the same data written to Parquet by polars.
    reference = await DuckDBInstance.create(':memory:')
    const c = await reference.connect()
    for (const [name, table] of [
      ['orders', tableOf([...orders(0, ORDERS).batches, ...orders(ORDERS, 1000).batches])],
      ['orders_v1', orders(0, ORDERS)],
      ['items', items()],
    ] as const) {
      const path = join(base, `${name}.parquet`)
      pl.readIPC(Buffer.from(tableToIPC(table, 'file'))).writeParquet(path)
      await c.run(`CREATE VIEW ${name} AS SELECT * FROM read_parquet('${path}')`)
    }
    c.closeSync()
  }, 120_000)
  afterAll(async () => {
    await service?.closeAll()
    reference?.closeSync()
    await removeDir(base)
  })

  it('a join with a group-by gives the answer DuckDB gives over the same data in Parquet', async () => {
    const ours = `SELECT o.o_status, count(*) AS n, sum(i.i_qty) AS qty, min(o.o_id) AS first_id
      FROM sales.orders o JOIN sales.items i ON i.i_order = o.o_id
      WHERE i.i_flag IS NOT NULL AND o.o_date >= DATE '1993-01-01'
      GROUP BY o.o_status ORDER BY o.o_status`
    const theirs = ours.replace('sales.orders', 'orders').replace('sales.items', 'items')
    const got = await rows(ours)
    expect(got.length).toBe(3)
    expect(got).toEqual(await expected(theirs))
  })

  it('an older version through lance(path, version => n), the latest by name; EXCEPT between them', async () => {
    expect(await rows("SELECT count(*) FROM lance('sales/orders', version => 1)")).toEqual([['5000']])
    expect(await rows('SELECT count(*) FROM sales.orders')).toEqual([['6000']])
    const ours = "SELECT o_id FROM sales.orders EXCEPT SELECT o_id FROM lance('sales/orders', version => 1) ORDER BY 1 LIMIT 3"
    expect(await rows(ours)).toEqual(await expected('SELECT o_id FROM orders EXCEPT SELECT o_id FROM orders_v1 ORDER BY 1 LIMIT 3'))
    const info = value<SqlQueryInfo>(await run("SELECT * FROM lance('sales/orders', version => 1) LIMIT 1"))
    expect(info.readVersions).toEqual([{ namespace: ['sales'], name: 'orders', version: 1 }])
  })

  it('a tag names a version: lance(path, tag => name); the editor lists namespaces, tables and columns', async () => {
    value(await service.dispatch('tags/create', { connectionId: connection.id, namespace: ['sales'], name: 'orders', tag: 'first', version: 1 }))
    expect(await rows("SELECT count(*) FROM lance('sales/orders', tag => 'first')")).toEqual([['5000']])
    const names = value<SqlNames>(await service.dispatch('sql/names', { connectionId: connection.id }))
    expect(names.namespaces).toContainEqual(['sales', 'eu'])
    expect(names.tables.find((t) => t.namespace.join('.') === 'sales' && t.name === 'items')?.columns.map((c) => c.name)).toEqual(['i_order', 'i_qty', 'i_flag'])
    expect(names.truncated).toBe(false)
  })

  it('names: nested namespaces, quoted names, root tables unqualified, 64-bit ids exact', async () => {
    expect(await rows('SELECT count(*) FROM sales.eu.orders')).toEqual([['10']])
    expect(await rows('SELECT max(o_id) FROM "odd.name"."select"')).toEqual([[(BIG + 2n).toString()]])
    expect(await rows('SELECT count(*) FROM people')).toEqual([['10']])
    expect(await rows('WITH people AS (SELECT 1 AS x) SELECT * FROM people')).toEqual([[1]])
  })

  it('a REST catalog answers the same: its tables read through the server\'s query route', async () => {
    const server = await startServer({ root: catalogRoot, apiKeys: [KEY] })
    try {
      const { connection: rest } = value<{ connection: ConnectionInfo }>(
        await service.dispatch('connections/saved/connect', { kind: 'rest', draft: { name: 'Here', endpoint: server.url, auth: { kind: 'api-key', secret: KEY } } }),
      )
      const sql = 'SELECT o_status, count(*) AS n, min(o_id) AS lo FROM sales.orders GROUP BY 1 ORDER BY 1'
      const info = value<SqlQueryInfo>(await service.dispatch('sql/run', { connectionId: rest.id, sql }))
      const table = tableFromIPC(value<Uint8Array>(await service.dispatch('sql/page', { queryId: info.queryId, offset: 0, limit: 10 })))
      const got = [...table].map((row) => [row.o_status, String(row.n), String(row.lo)])
      expect(got).toEqual((await rows(sql)).map((row) => row.map(String)))
      value(await service.dispatch('connections/close', { connectionId: rest.id }))
    } finally {
      await server.close()
    }
  }, 120_000)

  it('across two open catalogs: a directory\'s table joined with a REST catalog\'s, named by its label', async () => {
    // The REST server serves another catalog: its orders hold the first 10 of ours (sales.eu.orders' data).
    const otherRoot = await buildCatalog(join(base, 'other'), { namespaces: [['sales']], tables: [{ namespace: ['sales'], name: 'orders', data: orders(0, 10) }] })
    const server = await startServer({ root: otherRoot, apiKeys: [KEY] })
    try {
      const { connection: rest } = value<{ connection: ConnectionInfo }>(
        await service.dispatch('connections/saved/connect', { kind: 'rest', draft: { name: 'Remote', endpoint: server.url, auth: { kind: 'api-key', secret: KEY } } }),
      )
      expect(rest.label).toBe('Remote')
      const sql = `SELECT r.o_status, count(*) AS n, sum(i.i_qty) AS qty
        FROM lance('sales/orders', catalog => 'Remote') r JOIN sales.items i ON i.i_order = r.o_id
        GROUP BY 1 ORDER BY 1`
      const info = value<SqlQueryInfo>(await service.dispatch('sql/run', { connectionId: connection.id, sql, catalogs: [connection.id, rest.id] }))
      expect(info.readVersions).toContainEqual({ namespace: ['sales'], name: 'items', version: 1 })
      // The versions read name the other catalog a table came from (the query's own tables name none).
      expect(info.readVersions).toContainEqual({ namespace: ['sales'], name: 'orders', version: 1, catalog: 'Remote' })
      const table = tableFromIPC(value<Uint8Array>(await service.dispatch('sql/page', { queryId: info.queryId, offset: 0, limit: 10 })))
      const got = [...table].map((row) => [row.o_status, String(row.n), normal(row.qty)])
      // The same join in the reference: orders 0..9 are the first 10 rows of the reference's orders.
      const want = await expected('SELECT r.o_status, count(*) AS n, sum(i.i_qty) AS qty FROM (SELECT * FROM orders ORDER BY o_id LIMIT 10) r JOIN items i ON i.i_order = r.o_id GROUP BY 1 ORDER BY 1')
      expect(got).toEqual(want.map(([status, n, qty]) => [status, String(n), qty]))
      expect(got.length).toBe(3)
      // The same name on this catalog alone is this catalog's table (6,000 rows, not the REST catalog's 10).
      expect(await rows('SELECT count(*) FROM sales.orders')).toEqual([['6000']])
      // Explain names what each catalog's scan reads.
      const explain = value<SqlExplain>(await service.dispatch('sql/explain', { connectionId: connection.id, sql, catalogs: [rest.id] }))
      expect(explain.scans.map((s) => s.name).sort()).toEqual(['items', 'orders'])
      expect(explain.scans.map((s) => [s.name, s.catalog])).toEqual(expect.arrayContaining([['items', undefined], ['orders', 'Remote']]))
      // A label not among the catalogs given: refused in words, naming those that are, the name underlined.
      const unknown = "SELECT * FROM lance('sales/orders', catalog => 'Elsewhere')"
      const error = failure(await service.dispatch('sql/run', { connectionId: connection.id, sql: unknown, catalogs: [rest.id] }))
      expect(error.code).toBe('invalid_input')
      expect(error.message).toContain('"Elsewhere"')
      expect(error.hint).toContain('"Remote"')
      expect(unknown.slice(error.span!.start, error.span!.end)).toMatch(/^lance\(/)
      // Without the other catalog in the call it is not reachable.
      expect(failure(await service.dispatch('sql/run', { connectionId: connection.id, sql })).message).toContain('"Remote"')
      value(await service.dispatch('connections/close', { connectionId: rest.id }))
    } finally {
      await server.close()
    }
  }, 120_000)

  it('an unknown table suggests the nearest name, with the span of the name in the text', async () => {
    const sql = 'SELECT *\nFROM sales.ordres'
    const error = failure(await run(sql))
    expect(error.code).toBe('invalid_input')
    expect(error.hint).toContain('orders')
    expect(sql.slice(error.span!.start, error.span!.end)).toBe('sales.ordres')
  })

  it('an unknown column names the line and column and suggests the nearest', async () => {
    const sql = 'SELECT o_idd\nFROM sales.orders'
    const error = failure(await run(sql))
    expect(error.code).toBe('invalid_input')
    expect(error.message).toContain('line 1, column 8')
    expect(sql.slice(error.span!.start, error.span!.end)).toBe('o_idd')
    expect(error.hint).toContain('o_id')
  })

  it('a syntax error is underlined where DuckDB points', async () => {
    const sql = 'SELECT *\nFORM sales.orders'
    const error = failure(await run(sql))
    expect(error.code).toBe('invalid_input')
    expect(error.message).toMatch(/line 2/)
    expect(error.span!.start).toBeGreaterThanOrEqual(9)
  })

  it('Explain says which columns, filters and limits go to Lance', async () => {
    const explain = value<SqlExplain>(await service.dispatch('sql/explain', { connectionId: connection.id, sql: "SELECT o_id FROM sales.orders WHERE o_cust = 5 AND o_status = 'F' AND o_date >= DATE '1995-01-01'" }))
    expect(explain.scans).toHaveLength(1)
    const scan = explain.scans[0]!
    expect(scan.columns.sort()).toEqual(['o_cust', 'o_date', 'o_id', 'o_status'])
    expect(scan.filter).toContain('o_cust = 5')
    expect(scan.filter).toContain("o_status = 'F'")
    expect(scan.filter).toContain("o_date >= date '1995-01-01'")
    expect(explain.plan).toContain('sales.orders')
    const limited = value<SqlExplain>(await service.dispatch('sql/explain', { connectionId: connection.id, sql: 'SELECT o_id FROM sales.orders LIMIT 7' }))
    expect(limited.scans[0]).toMatchObject({ columns: ['o_id'], limit: 7, filter: null })
    // Every column: DuckDB 1.5's late materialization would plan this as a rowid semi-join the planner must not see.
    const star = value<SqlExplain>(await service.dispatch('sql/explain', { connectionId: connection.id, sql: 'SELECT * FROM sales.orders LIMIT 7 OFFSET 2' }))
    expect(star.scans[0]).toMatchObject({ limit: 9, filter: null })
    // DATE - INTERVAL folds to a timestamp at midnight: a date column is compared with the date in Lance, and counts the same.
    const interval = "SELECT count(*) FROM sales.orders WHERE o_date <= DATE '1995-12-01' - INTERVAL 90 DAY"
    const folded = value<SqlExplain>(await service.dispatch('sql/explain', { connectionId: connection.id, sql: interval }))
    expect(folded.scans[0]!.filter).toContain("o_date <= date '1995-09-02'")
    expect(await rows(interval)).toEqual(await expected(interval.replace('sales.orders', 'orders')))
    // The pushed filter gives the same rows as DuckDB's own.
    expect(await rows("SELECT count(*) FROM sales.orders WHERE o_cust = 5 AND o_status = 'F'")).toEqual(await expected("SELECT count(*) FROM orders WHERE o_cust = 5 AND o_status = 'F'"))
  })
})
