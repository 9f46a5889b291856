import { availableParallelism } from 'node:os'
import { DuckDBInstance } from '@duckdb/node-api'
import { makeTempFolder, TEMP_PREFIXES } from '../tempFolders'

export interface SqlEngineLimits {
  /**
   * The engine's memory in MiB: DuckDB's `memory_limit` (past it, operators spill to the temp folder, or the query
   * fails in words) and the tables held for it as Arrow batches together ({@link memorySplit}).
   */
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

/** The share of the engine's memory kept for held tables (heldScan.ts); DuckDB's `memory_limit` is the rest. */
const HELD_SHARE = 1 / 4

/**
 * The engine's memory split between DuckDB and the catalog tables held in this process for it to scan, which DuckDB
 * does not count (it only knows its own buffers): DuckDB's `memory_limit` is the budget less the held share, so the
 * two together stay inside it. Fixed at start: the configuration is locked (no statement, ours included, can change
 * the limit later), so the split cannot follow what is held. The held share is bounded by the least recently used
 * going first, and a load past it goes into a DuckDB table, which DuckDB spills (tableCache.ts).
 */
export function memorySplit(limits: SqlEngineLimits): { duckdbMb: number; heldBytes: number } {
  const heldMb = limits.memoryMb * HELD_SHARE
  return { duckdbMb: limits.memoryMb - heldMb, heldBytes: Math.floor(heldMb * 1024 * 1024) }
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
    memory_limit: `${Math.round(memorySplit(limits).duckdbMb)}MiB`,
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
