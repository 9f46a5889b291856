import type { IndexType } from './lifecycle'
import type { AppErrorData } from './result'
import type { TableRef } from './types'

/**
 * Index builds as jobs in the jobs panel (`indexes/start`, followed through `jobs/progress` events).
 * lancedb 0.31 reports no progress for a build and cannot stop one: a job shows elapsed time only, and
 * Cancel takes effect when the build step ends (the new index is then dropped again).
 */

export interface IndexJobInfo {
  id: string
  kind: 'index'
  /** `queued`: waiting for a free slot or for memory (see `queueReason`); Cancel ends it at once. */
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
  /** Why a queued job waits, in words (absent once it runs). */
  queueReason?: string
  table: TableRef
  index: { name: string; type: IndexType; column: string }
  /** Cancel was asked; the build step still runs (Lance cannot stop it) and its index is dropped when it ends. */
  cancelling: boolean
  createdAt: number
  startedAt: number
  finishedAt: number | null
  error: AppErrorData | null
  /** The build waits for an earlier write to the same table (writes to one table run one at a time). */
  waiting?: string
  /** Attempts so far when another writer's commit made Lance ask for a retry. */
  attempts?: number
}
