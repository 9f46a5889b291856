import { AppError, type OptimizeResult, type VersionInfo } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { formatTableId, type TableId } from '../namespace/path'

/**
 * Writes whose result the catalog's other readers must be able to read: the format new tables take, the legacy
 * tables an index or an optimize would break for their old writer, and what an Optimize that failed half-way left.
 */

/**
 * Refuse `action` on a table in the legacy (v1) data format unless the caller says the user agreed: after lancedb
 * 0.31 builds an index on such a table or optimizes it, vectordb 0.4.x (the release that writes that format)
 * panics on its own filtered queries of the table (seen on this machine; count, scan and vector search still work).
 * A client that does not ask its user cannot do it silently.
 */
export async function assertLegacyAcknowledged(client: NamespaceClient, id: TableId, acknowledged: boolean | undefined, action: string): Promise<void> {
  if (acknowledged) return
  const format = await client.tableDataFormat?.(id)
  if (format !== 'legacy') return
  throw new AppError(
    'invalid_input',
    `Table ${formatTableId(id)} is in the legacy (v1) data format, which vectordb 0.4.x writes. After ${action}, vectordb 0.4.x's own filtered queries on this table fail (newer releases are not affected)`,
    { hint: 'Confirm to go ahead anyway (a request must say acknowledgeLegacy: true), or make the change with the release that wrote the table' },
  )
}

/**
 * Optimize in lancedb 0.31 is three steps in one call: compaction (a commit), pruning old versions (files
 * removed, no commit), then updating the indexes (a commit). When a later step fails the earlier ones stay done;
 * the error then says what was committed, from the version lists before and after.
 */
export async function optimizeSaying(client: NamespaceClient, id: TableId, pruneOlderThanDays: number | undefined): Promise<OptimizeResult> {
  const before = await client.listVersions(id)
  try {
    return await client.optimize(id, { pruneOlderThanDays })
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'cancelled') throw error
    const after = await client.listVersions(id).catch(() => null)
    if (after === null) throw error
    const steps = stepsDone(before, after, /index/i.test(`${error.message} ${error.detail ?? ''}`))
    return Promise.reject(new AppError(error.code, `Optimize stopped: ${error.message}. ${steps}`, { detail: error.detail, hint: error.hint }))
  }
}

/** What an Optimize committed before it failed, in words, from the versions before and after (`indexFailed`: the error is about an index). */
export function stepsDone(before: VersionInfo[], after: VersionInfo[], indexFailed: boolean): string {
  const latest = (vs: VersionInfo[]) => vs.reduce((m, v) => Math.max(m, v.version), 0)
  const had = new Set(before.map((v) => v.version))
  const has = new Set(after.map((v) => v.version))
  const added = after.filter((v) => !had.has(v.version))
  const removed = before.filter((v) => !has.has(v.version)).length
  const done: string[] = []
  if (added.length > 0) {
    const compacted = added.some((v) => v.operation === 'compaction')
    done.push(`${compacted ? 'compaction' : 'a change'} committed (version ${latest(before)} → ${latest(after)})`)
  }
  if (removed > 0) done.push(`${removed} old version${removed === 1 ? '' : 's'} pruned`)
  if (done.length === 0) return `Nothing was committed: the table is still at version ${latest(before)}.`
  // Lance's order: compaction, prune, indexes. A prune that removed files means only the indexes remained.
  const notDone = indexFailed || removed > 0 ? 'updating the indexes' : 'pruning old versions and updating the indexes'
  return `Done before the failure: ${done.join('; ')}. Not done: ${notDone}.`
}
