import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import type { NamespaceClient } from '../../../src/core/namespace/client'
import { DirNamespaceClient } from '../../../src/core/namespace/dir'
import { SqlEngine } from '../../../src/core/sql/engine'
import { buildCatalog, makeTempDir, removeDir, sampleTable } from '../../helpers/catalog'

const ROWS = 60_000
const FRAGMENTS = 6
const ID = { namespace: ['ns'], name: 't' }

/**
 * The real directory client, whose scans run `between` (a drop or an overwrite by a second, real client) once the
 * first batch of a load has been handed over: the table changes while the query is reading it, every time.
 */
function changedMidScan(client: NamespaceClient, between: () => Promise<void>, afterBatches: number): NamespaceClient {
  return new Proxy(client, {
    get(target, key) {
      if (key === 'scan') {
        return async function* (...args: Parameters<NamespaceClient['scan']>) {
          let seen = 0
          if (afterBatches === 0) await between()
          for await (const batch of target.scan(...args)) {
            yield batch
            if (++seen === afterBatches) await between()
          }
        }
      }
      const value = Reflect.get(target, key, target) as unknown
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
}

describe('a table dropped or rewritten while a query reads it', () => {
  let base: string
  let root: string
  let engine: SqlEngine
  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-midquery-')
    root = await buildCatalog(join(base, 'catalog'), { namespaces: [['ns']] })
    engine = new SqlEngine({ memoryMb: 256, threads: 1, timeoutMs: 120_000 })
  })
  afterAll(async () => {
    await engine?.closeAll()
    await removeDir(base)
  })

  /** `sql/run` and its first page, or the error it ended with. */
  async function runOver(client: NamespaceClient, sql: string, catalog: string): Promise<{ rows: unknown[][] } | { error: unknown }> {
    try {
      const info = await engine.run(client, catalog, 'c1', sql)
      const table = tableFromIPC(await engine.page(info.queryId, 0, 10))
      engine.close(info.queryId)
      return { rows: [...table].map((row) => table.schema.fields.map((f) => String(row[f.name]))) }
    } catch (error) {
      return { error }
    }
  }

  const drop = async (writer: DirNamespaceClient) => writer.dropTable(ID)
  const overwrite = async (writer: DirNamespaceClient) => void (await writer.createTable(ID, sampleTable(5, { dimension: 0 }).select(['label']), { mode: 'overwrite' }))
  it.each([
    { what: 'dropped', change: drop, afterBatches: 0 },
    { what: 'dropped', change: drop, afterBatches: 1 },
    { what: 'overwritten with other columns', change: overwrite, afterBatches: 0 },
    { what: 'overwritten with other columns', change: overwrite, afterBatches: 1 },
  ] as const)('$what after $afterBatches batches were read: the query ends in words or answers the version it began with; the engine goes on', async ({ what, change, afterBatches }) => {
    const writer = await DirNamespaceClient.open(root)
    const reader = await DirNamespaceClient.open(root)
    try {
      // Several fragments (data files), so files are still to be opened when the change lands.
      await writer.createTable(ID, sampleTable(ROWS / FRAGMENTS, { dimension: 0 }), { mode: 'overwrite' })
      for (let i = 1; i < FRAGMENTS; i++) await writer.appendRows(ID, sampleTable(ROWS / FRAGMENTS, { dimension: 0, start: BigInt((i * ROWS) / FRAGMENTS) }))
      const sql = 'SELECT count(*) AS n, sum(id) AS s, max(label) AS m FROM ns.t'
      const catalog = `${root}#${what}${afterBatches}`
      const whole = { rows: [[String(ROWS), String((ROWS * (ROWS - 1)) / 2), 'row-9999']] }
      const outcome = await runOver(changedMidScan(reader, () => change(writer), afterBatches), sql, catalog)
      if ('error' in outcome) {
        // Ended with words: an AppError the user can act on, never `internal`.
        expect(outcome.error).toBeInstanceOf(AppError)
        expect((outcome.error as AppError).code).not.toBe('internal')
        expect((outcome.error as AppError).message).toMatch(/ns\/t/)
      } else {
        // Lance reads the version the query resolved: whole, never a mix of old and new rows.
        expect(outcome).toEqual(whole)
      }
      // Dropped before its files were opened: not found, in words. An overwrite keeps the version read: its answer.
      if (what === 'dropped' && afterBatches === 0) expect('error' in outcome && (outcome.error as AppError).code).toBe('not_found')
      if (what !== 'dropped') expect(outcome).toEqual(whole)
      // The engine answers the next statement over the table as it is now.
      const after = await runOver(reader, 'SELECT count(*) AS n FROM ns.t', catalog)
      if (what === 'dropped') {
        expect('error' in after && after.error instanceof AppError && after.error.code).toBe('invalid_input')
      } else {
        expect(after).toEqual({ rows: [['5']] })
      }
    } finally {
      await writer.close()
      await reader.close()
    }
  }, 120_000)
})
