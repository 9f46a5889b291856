import { readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { parse } from 'csv-parse/sync'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  SQL_RESULTS_CONNECTION,
  type ConnectionInfo,
  type ExportJobInfo,
  type MapJobInfo,
  type ProfileJobInfo,
  type SqlQueryInfo,
  type SqlResultTable,
  type TableInfo,
} from '../../../src/contract'
import type { CatalogService } from '../../../src/core/service'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'
import { failure, openCatalog, value } from '../../helpers/service'

const ROWS = 30_000

describe('a query result opened as a table: the Summary, the Map and Export read it through the table contract', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  const run = async (sql: string) => {
    const info = value<SqlQueryInfo>(await service.dispatch('sql/run', { connectionId: connection.id, sql }))
    return info
  }
  const resultTable = async (queryId: string) => value<SqlResultTable>(await service.dispatch('sql/resultTable', { queryId }))

  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-results-')
    const root = await buildCatalog(join(base, 'catalog'), { namespaces: [['ns']], tables: [{ namespace: ['ns'], name: 'big', rows: ROWS, sample: { dimension: 4 } }] })
    ;({ service, connection } = await openCatalog(root))
  }, 60_000)
  afterAll(async () => {
    await service?.closeAll()
    await removeDir(base)
  })

  it('holds the result rows in order, with their types (a vector stays a vector), at the result table connection', async () => {
    // Longer than one page (10,000 rows) and one DuckDB chunk; computed columns, a name with a dot.
    const info = await run('SELECT id, label, id * 2 AS "twice.id", vector FROM ns.big WHERE id % 2 = 0 ORDER BY id DESC')
    const opened = await resultTable(info.queryId)
    expect(opened.tableRef).toMatchObject({ connectionId: SQL_RESULTS_CONNECTION, namespace: [] })
    expect(opened.info.rowCount).toBe(ROWS / 2)
    // Lance refuses a dot in a top-level column name: renamed, and said.
    expect(opened.info.schema.map((f) => f.name)).toEqual(['id', 'label', 'twice_id', 'vector'])
    expect(opened.renamed).toEqual([{ from: 'twice.id', to: 'twice_id' }])
    expect(opened.info.schema.find((f) => f.name === 'vector')?.vectorDimension).toBe(4)
    // Described through the ordinary table methods, rows in the result's order.
    const described = value<TableInfo>(await service.dispatch('tables/describe', opened.tableRef))
    expect(described.rowCount).toBe(ROWS / 2)
    const rows = tableFromIPC(value<Uint8Array>(await service.dispatch('tables/page', { ...opened.tableRef, offset: 12_000, limit: 2 })))
    const page = tableFromIPC(value<Uint8Array>(await service.dispatch('sql/page', { queryId: info.queryId, offset: 12_000, limit: 2 })))
    expect(rows.toArray().map((r) => [String(r.id), r.label, String(r.twice_id)])).toEqual(page.toArray().map((r) => [String(r.id), r.label, String(r['twice.id'])]))
    expect(String(rows.get(0)!.id)).toBe(String(ROWS - 2 - 2 * 12_000))
    // Asked again: the same table, not a second copy.
    const again = await resultTable(info.queryId)
    expect(again.tableRef).toEqual(opened.tableRef)
    expect(again.elapsedMs).toBe(0)
  }, 60_000)

  it('the Summary profiles the result, the Map places its vectors, Export writes its rows', async () => {
    const info = await run("SELECT id, label, vector FROM ns.big WHERE label LIKE 'row-1%'")
    // ids 1, 10–19, 100–199, 1,000–1,999 and 10,000–19,999 (the result is longer than its first answer).
    const expected = 11_111
    const { tableRef, info: table } = await resultTable(info.queryId)
    const profile = value<ProfileJobInfo>(await service.dispatch('profile/start', { ...tableRef, view: { version: table.version } }))
    const profiled = await service.profiles.wait(profile.id)
    expect(profiled.state).toBe('done')
    expect(profiled.result?.rows).toBe(expected)
    const map = value<MapJobInfo>(await service.dispatch('map/start', { ...tableRef, column: 'vector' }))
    const mapped = await service.maps.wait(map.id)
    expect(mapped.state).toBe('done')
    expect(mapped.result?.rows).toBe(expected)
    const out = join(base, 'result.csv')
    const exported = value<ExportJobInfo>(await service.dispatch('export/start', { ...tableRef, view: {}, format: 'csv', path: out }))
    expect((await service.exports.jobs.wait(exported.id)).state).toBe('done')
    const records = parse(await readFile(out), { columns: true }) as Record<string, string>[]
    expect(records).toHaveLength(expected)
    expect(records.every((r) => r.label!.startsWith('row-1'))).toBe(true)
  }, 120_000)

  it('an empty result is an empty table with the result columns', async () => {
    const info = await run('SELECT id, label FROM ns.big WHERE id < 0')
    const opened = await resultTable(info.queryId)
    expect(opened.info.rowCount).toBe(0)
    expect(opened.info.schema.map((f) => f.name)).toEqual(['id', 'label'])
  })

  it('is read-only: a write to a result table is refused in words; closing the query drops it', async () => {
    const info = await run('SELECT id FROM ns.big LIMIT 10')
    const { tableRef } = await resultTable(info.queryId)
    const refused = failure(await service.dispatch('rows/delete', { ...tableRef, filter: 'id > 1' }))
    expect(refused.code).toBe('unsupported')
    expect(refused.message).toContain('read-only')
    expect(refused.hint).toContain('Save as table')
    expect(value<TableInfo>(await service.dispatch('tables/describe', tableRef)).rowCount).toBe(10)
    value(await service.dispatch('sql/close', { queryId: info.queryId }))
    expect(failure(await service.dispatch('tables/describe', tableRef)).code).toBe('not_found')
  })

  it('a result longer than a result table holds is refused in words, before anything is written', async () => {
    const info = await run('SELECT i FROM range(1500000) t(i)')
    const refused = failure(await service.dispatch('sql/resultTable', { queryId: info.queryId }))
    expect(refused.code).toBe('unsupported')
    expect(refused.message).toBe('This result has at least 1,000,000 rows: the Summary, the Map and Export… open results of fewer rows than that')
    expect(refused.hint).toContain('Save as table…')
    expect((await service.sql.results.client().listTables([])).items).not.toContain(expect.stringMatching(/query_result/))
  }, 60_000)

  it('a query that is gone answers not_found; the copies live in the app temp folder, never in the catalog', async () => {
    expect(failure(await service.dispatch('sql/resultTable', { queryId: 'qgone' })).code).toBe('not_found')
    expect((await service.client(connection.id).listTables([])).items).toEqual([])
    const folders = (await readdir(tmpdir())).filter((name) => name.startsWith(`lcb-results-${process.pid}-`))
    expect(folders).toHaveLength(1)
  })
})
