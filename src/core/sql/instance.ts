import { availableParallelism } from 'node:os'
import { DuckDBInstance } from '@duckdb/node-api'
import { makeTempFolder, TEMP_PREFIXES } from '../tempFolders'

export interface SqlEngineLimits {
  /** DuckDB's `memory_limit` in MiB: past it, operators spill to the temp folder, or the query fails in words. */
  memoryMb: number
  /** DuckDB's worker threads. */
  threads: number
  /** A query's time budget: past it the query is interrupted (a recursive CTE that never ends). */
  timeoutMs: number
}

/** The defaults, or `LCB_SQL_MEMORY_MB`, `LCB_SQL_THREADS`, `LCB_SQL_TIMEOUT_S` from the environment. */
export function sqlLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): SqlEngineLimits {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name])
    return Number.isFinite(value) && value > 0 ? value : fallback
  }
  return {
    memoryMb: number('LCB_SQL_MEMORY_MB', 1024),
    // One core stays for the app itself (the UI, Lance's reads feeding DuckDB).
    threads: Math.floor(number('LCB_SQL_THREADS', Math.max(1, Math.min(4, availableParallelism() - 1)))),
    timeoutMs: number('LCB_SQL_TIMEOUT_S', 300) * 1000,
  }
}

/**
 * DuckDB, locked down at birth: no file or network access but our own temp folder (spills and Save as table's
 * hand-over file), no extension installed or loaded (DuckDB would download them), a memory limit, bounded threads,
 * and the configuration locked so no statement can change any of it (`SET` fails). An in-memory database: it holds
 * only the catalog tables a query read (src/core/sql/tableCache.ts) and nothing outlives the process.
 */
export async function openEngine(limits: SqlEngineLimits): Promise<{ instance: DuckDBInstance; folder: string }> {
  const folder = await makeTempFolder(TEMP_PREFIXES.sql)
  const instance = await DuckDBInstance.create(':memory:', {
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    allow_community_extensions: 'false',
    allow_unsigned_extensions: 'false',
    memory_limit: `${Math.round(limits.memoryMb)}MB`,
    threads: String(limits.threads),
    temp_directory: folder,
    preserve_insertion_order: 'true',
  })
  // `allowed_directories` cannot be given at creation (DuckDB refuses it there), so the lock-down is three statements
  // on the first connection, in this order: what stays allowed, then no other access, then nothing can change.
  const setup = await instance.connect()
  try {
    await setup.run(`SET allowed_directories = ['${folder.replaceAll("'", "''")}']`)
    await setup.run('SET enable_external_access = false')
    await setup.run('SET lock_configuration = true')
  } finally {
    setup.closeSync()
  }
  return { instance, folder }
}
