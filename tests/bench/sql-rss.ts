/**
 * Child of the sql bench: runs one statement through the service (as the app does: sql/run, then its pages) under
 * LCB_SQL_MEMORY_MB, and prints its own peak RSS, the most its SQL temp folder held while the statement ran
 * (DuckDB's spill), the rows and the time. Args: catalog root, SQL.
 */
import { readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { ensureLanceThreads } from '../../src/core'
import type { ConnectionInfo, Result, SqlQueryInfo } from '../../src/contract'
import { CatalogService, MemoryRecentsStore } from '../../src/core/service'
import { TEMP_PREFIXES } from '../../src/core/tempFolders'
import { dirBytes } from './sql-big'
import { peakRssMiB, printResult } from './lib'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(JSON.stringify(result.error))
  return result.value as T
}

async function main(): Promise<void> {
  ensureLanceThreads()
  const [root, sql] = process.argv.slice(2) as [string, string]
  const service = new CatalogService({ host: 'harness', version: 'bench', recents: new MemoryRecentsStore() })
  const connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  value(await service.dispatch('sql/run', { connectionId: connection.id, sql: 'SELECT 1' }))
  const own = `${TEMP_PREFIXES.sql}${process.pid}-`
  const folder = (await readdir(tmpdir())).find((name) => name.startsWith(own))
  let tempPeak = 0
  let sampling = false
  const timer = setInterval(() => {
    if (sampling || !folder) return
    sampling = true
    void dirBytes(join(tmpdir(), folder)).then((bytes) => {
      tempPeak = Math.max(tempPeak, bytes)
      sampling = false
    })
  }, 50)
  const started = performance.now()
  const info = value<SqlQueryInfo>(await service.dispatch('sql/run', { connectionId: connection.id, sql }))
  let rows = 0
  for (let offset = 0; ; offset += 1000) {
    value(await service.dispatch('sql/page', { queryId: info.queryId, offset, limit: 1000 }))
    const status = value<SqlQueryInfo>(await service.dispatch('sql/status', { queryId: info.queryId }))
    rows = status.rowCount ?? rows
    if (status.done && offset + 1000 >= (status.rowCount ?? 0)) break
  }
  const ms = performance.now() - started
  clearInterval(timer)
  await service.closeAll()
  printResult({ maxRssMiB: peakRssMiB(), tempPeakMiB: Math.round(tempPeak / 1024 / 1024), rows, ms: Math.round(ms) })
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
