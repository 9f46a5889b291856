import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_SQL_HISTORY, SQL_PAGE_META, type ConnectionInfo, type ImportJobInfo, type JobInfo, type SqlHistoryEntry, type SqlQueryInfo } from '../../../src/contract'
import type { CatalogService } from '../../../src/core/service'
import { SettingsFile } from '../../../src/core/settings'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'
import { failure, openCatalog, value } from '../../helpers/service'

const ROWS = 60_000

describe('SQL results are kept and paged; history in the settings; Save as table through an import job', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  let settings: SettingsFile
  const run = (sql: string) => service.dispatch('sql/run', { connectionId: connection.id, sql })
  const page = async (queryId: string, offset: number, limit: number) => tableFromIPC(value<Uint8Array>(await service.dispatch('sql/page', { queryId, offset, limit })))

  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-module-')
    const root = await buildCatalog(join(base, 'catalog'), { namespaces: [['ns']], tables: [{ namespace: ['ns'], name: 'big', rows: ROWS, sample: { dimension: 4 } }] })
    settings = new SettingsFile(join(base, 'settings.json'))
    ;({ service, connection } = await openCatalog(root, settings))
  }, 60_000)
  afterAll(async () => {
    await service?.closeAll()
    await removeDir(base)
  })

  it('a long result answers with its first rows before it is read to the end, and pages anywhere in it', async () => {
    const info = value<SqlQueryInfo>(await run('SELECT id, label FROM ns.big'))
    expect(info.done).toBe(false)
    expect(info.rowCount).toBeNull()
    expect(info.rowsSoFar).toBeGreaterThan(0)
    expect(info.rowsSoFar).toBeLessThan(ROWS)
    const far = await page(info.queryId, 55_000, 100)
    expect(far.numRows).toBe(100)
    expect(far.getChild('label')!.get(0)).toBe('row-55000')
    const last = await page(info.queryId, ROWS - 10, 1000)
    expect(last.numRows).toBe(10)
    expect(last.schema.metadata.get(SQL_PAGE_META.done)).toBe('true')
    expect(last.schema.metadata.get(SQL_PAGE_META.rowCount)).toBe(String(ROWS))
    const status = value<SqlQueryInfo>(await service.dispatch('sql/status', { queryId: info.queryId }))
    expect(status).toMatchObject({ state: 'done', done: true, rowCount: ROWS })
    value(await service.dispatch('sql/close', { queryId: info.queryId }))
    expect(failure(await service.dispatch('sql/page', { queryId: info.queryId, offset: 0, limit: 1 })).code).toBe('not_found')
  })

  it('cancel frees a kept query: its pages are refused, its state says cancelled', async () => {
    const info = value<SqlQueryInfo>(await run('SELECT * FROM ns.big'))
    expect(value<SqlQueryInfo>(await service.dispatch('sql/cancel', { queryId: info.queryId }))?.state).toBe('cancelled')
    expect(failure(await service.dispatch('sql/page', { queryId: info.queryId, offset: 0, limit: 10 })).code).toBe('cancelled')
    expect(value(await service.dispatch('sql/cancel', { queryId: 'qunknown' }))).toBeNull()
  })

  it('the history is kept per catalog in the settings file, newest first, the same text once', async () => {
    const add = (sql: string, ranAt: number) => service.dispatch('sql/history/add', { connectionId: connection.id, entry: { sql, ranAt, ok: true, rowCount: 1 } })
    value(await add('SELECT 1', 1))
    value(await add('SELECT 2', 2))
    value(await add('SELECT 1', 3))
    const list = value<SqlHistoryEntry[]>(await service.dispatch('sql/history/list', { connectionId: connection.id }))
    expect(list.map((e) => e.sql)).toEqual(['SELECT 1', 'SELECT 2'])
    // In the settings file, under the catalog's location (not in the catalog).
    const reread = await new SettingsFile(join(base, 'settings.json')).read()
    expect(reread.sqlHistory?.[connection.location]?.map((e) => e.sql)).toEqual(['SELECT 1', 'SELECT 2'])
    for (let i = 0; i < MAX_SQL_HISTORY + 5; i++) value(await add(`SELECT ${i + 10}`, 10 + i))
    expect(value<SqlHistoryEntry[]>(await service.dispatch('sql/history/list', { connectionId: connection.id }))).toHaveLength(MAX_SQL_HISTORY)
    value(await service.dispatch('sql/history/clear', { connectionId: connection.id }))
    expect(value<SqlHistoryEntry[]>(await service.dispatch('sql/history/list', { connectionId: connection.id }))).toEqual([])
  })

  it('Save as table writes the result through an import job; the new table holds the rows', async () => {
    const job = value<ImportJobInfo>(
      await service.dispatch('sql/saveAsTable', { connectionId: connection.id, sql: 'SELECT id, label, vector FROM ns.big WHERE id % 3 = 0', namespace: ['ns'], name: 'thirds' }),
    )
    expect(job.kind).toBe('import')
    let state = job.state
    for (let i = 0; i < 600 && (state === 'queued' || state === 'running'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      state = value<JobInfo[]>(await service.dispatch('jobs/list', {})).find((j) => j.id === job.id)!.state
    }
    expect(state).toBe('done')
    const counted = value<SqlQueryInfo>(await run('SELECT count(*) AS n, min(id) AS lo FROM ns.thirds'))
    const table = await page(counted.queryId, 0, 10)
    expect(table.getChild('n')!.get(0)).toBe(BigInt(ROWS / 3))
    // The vector column comes back as a vector.
    const described = value<{ schema: { name: string; vectorDimension?: number }[] }>(await service.dispatch('tables/describe', { connectionId: connection.id, namespace: ['ns'], name: 'thirds' }))
    expect(described.schema.find((f) => f.name === 'vector')?.vectorDimension).toBe(4)
  }, 120_000)

  it('Save as table refuses a statement that is not a query, and a name that exists', async () => {
    expect(failure(await service.dispatch('sql/saveAsTable', { connectionId: connection.id, sql: 'DROP TABLE ns.big', namespace: ['ns'], name: 'x' })).code).toBe('unsupported')
    expect(failure(await service.dispatch('sql/saveAsTable', { connectionId: connection.id, sql: 'SELECT 1 AS a', namespace: ['ns'], name: 'big' })).code).toBe('already_exists')
  })
})
