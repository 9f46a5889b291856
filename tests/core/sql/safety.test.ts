import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AppErrorData, type ConnectionInfo, type Result, type SqlQueryInfo } from '../../../src/contract'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}
function failure(result: Result<unknown>): AppErrorData {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`)
  return result.error
}

/** A GROUP BY over 2 billion generated rows: minutes of work, so only a cancel or the budget ends it. */
const ENDLESS_GROUP_BY = 'SELECT count(*) FROM (SELECT i % 1000003 AS k, sum(i) AS s FROM range(2000000000) t(i) GROUP BY k)'

describe('SQL is safe by default: it reads the catalog and nothing else', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  const run = (sql: string, requestId?: string) => service.dispatch('sql/run', { connectionId: connection.id, sql, requestId })

  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-safe-')
    const root = await buildCatalog(join(base, 'catalog'), { namespaces: [['ns']], tables: [{ namespace: ['ns'], name: 't', rows: 50 }] })
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
    // Load ns.t once, so a cached table exists for the statements below to try to reach.
    value<SqlQueryInfo>(await run('SELECT count(*) FROM ns.t'))
  }, 60_000)
  afterAll(async () => {
    await service?.closeAll()
    await removeDir(base)
  })

  it.each([
    ["ATTACH ':memory:' AS other", /ATTACH is refused/],
    ['INSTALL httpfs', /INSTALL is refused.*extensions/],
    ['LOAD httpfs', /LOAD is refused/],
    ['PRAGMA version', /PRAGMA is refused/],
    ["SET memory_limit = '100GB'", /SET is refused/],
    ["COPY (SELECT 1) TO '/tmp/lcb-sql-escape.csv'", /COPY is refused/],
    ['CREATE TABLE x AS SELECT 1', /CREATE is refused.*Save as table/],
    ['INSERT INTO ns.t VALUES (1)', /INSERT is refused/],
    ['DROP TABLE ns.t', /DROP is refused/],
    ["CALL pragma_version()", /CALL is refused/],
    ["SELECT * FROM read_csv('/etc/passwd')", /read_csv\(\) is refused/],
    ["SELECT * FROM query('SELECT 1')", /query\(\) is refused/],
    ["SELECT * FROM glob('/*')", /glob\(\) is refused/],
    ['SELECT * FROM duckdb_settings()', /duckdb_settings\(\) is refused/],
    ['SELECT * FROM duckdb_tables()', /duckdb_tables\(\) is refused/],
    // The engine's own scan of the tables it holds (heldScan.ts): only the engine names it.
    ['SELECT * FROM __lcb_scan(1)', /__lcb_scan\(\) is refused/],
  ])('%s is refused in words', async (sql, message) => {
    const error = failure(await run(sql))
    expect(error.code).toBe('unsupported')
    expect(error.message).toMatch(message)
    expect(error.span).toBeDefined()
  })

  it.each([
    ["SELECT * FROM '/etc/passwd'", /No table/],
    ['SELECT * FROM __lcb_t1', /No table/],
    ['SELECT * FROM memory.main.__lcb_t1', /No table/],
    ["SELECT * FROM lance('../../etc/passwd')", /./],
    ['SELECT 1; SELECT 2', /2 statements/],
  ])('%s reaches nothing outside the catalog', async (sql, message) => {
    const error = failure(await run(sql))
    expect(['invalid_input', 'not_found']).toContain(error.code)
    expect(error.message).toMatch(message)
  })

  it('a file read hidden in a scalar function fails: no file access at all', async () => {
    const error = failure(await run("SELECT content FROM ns.t, (SELECT 1) x WHERE label = getenv('HOME')"))
    expect(error.code).toBe('invalid_input')
  })

  it('cancelling a running GROUP BY ends it as cancelled, and the engine answers the next query', async () => {
    const running = run(ENDLESS_GROUP_BY, 'endless1')
    // Let DuckDB get going, then cancel the request (the query id is not known until sql/run answers).
    await new Promise((resolve) => setTimeout(resolve, 500))
    value(await service.dispatch('requests/cancel', { requestId: 'endless1' }))
    const error = failure(await running)
    expect(error.code).toBe('cancelled')
    expect(value<SqlQueryInfo>(await run('SELECT count(*) AS n FROM ns.t')).state).toMatch(/running|done/)
  }, 60_000)

  it('a cancel that comes while the statement is still being prepared stops it too (it never runs unstopped)', async () => {
    // The handler itself, so the request is registered before the cancel is sent (the dispatch would queue it).
    const running = service.sql.handlers['sql/run']({ connectionId: connection.id, sql: ENDLESS_GROUP_BY, requestId: 'early1' })
    value(await service.dispatch('requests/cancel', { requestId: 'early1' }))
    await expect(running).rejects.toMatchObject({ code: 'cancelled' })
    expect(value<SqlQueryInfo>(await run('SELECT count(*) AS n FROM ns.t')).state).toMatch(/running|done/)
  }, 60_000)
})

describe('a query that never ends is stopped by the time budget', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-budget-')
    const root = await buildCatalog(join(base, 'catalog'), { tables: [{ namespace: [], name: 't', rows: 5 }] })
    process.env.LCB_SQL_TIMEOUT_S = '2'
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    delete process.env.LCB_SQL_TIMEOUT_S
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  })
  afterAll(async () => {
    await service?.closeAll()
    await removeDir(base)
  })

  it.each([ENDLESS_GROUP_BY, 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r'])('%s', async (sql) => {
    const error = failure(await service.dispatch('sql/run', { connectionId: connection.id, sql }))
    // Bounded by time (the budget) or memory (DuckDB's limit), whichever comes first; never the app.
    expect(['timeout', 'unavailable']).toContain(error.code)
    expect(error.hint).toMatch(/LCB_SQL_(TIMEOUT_S|MEMORY_MB)/)
  }, 120_000)
})

describe('a GROUP BY larger than the memory limit spills to the engine\'s temp folder instead of failing', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-spill-')
    const root = await buildCatalog(join(base, 'catalog'), { tables: [{ namespace: [], name: 't', rows: 5 }] })
    process.env.LCB_SQL_MEMORY_MB = '128'
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    delete process.env.LCB_SQL_MEMORY_MB
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  })
  afterAll(async () => {
    await service?.closeAll()
    await removeDir(base)
  })

  it('6M groups under a 128 MiB limit', async () => {
    const info = value<SqlQueryInfo>(await service.dispatch('sql/run', { connectionId: connection.id, sql: 'SELECT count(*) AS groups, sum(s) AS total FROM (SELECT i, sum(i) AS s FROM range(6000000) t(i) GROUP BY i)' }))
    expect(info.state).toBe('done')
    const page = tableFromIPC(value<Uint8Array>(await service.dispatch('sql/page', { queryId: info.queryId, offset: 0, limit: 1 })))
    expect(page.getChild('groups')!.get(0)).toBe(6_000_000n)
  }, 180_000)
})
