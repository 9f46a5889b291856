import { z } from 'zod'
import type { VersionComparison } from './lifecycle'
import type { AppErrorData } from './result'
import type { TableRef } from './types'
import { MAX_VIEW_KEYS } from './view'

/**
 * What changed between two versions of a table ("Compare… → Show changes"): one streaming pass over both versions
 * that matches rows by a key column the user picks and tells rows added, deleted and changed apart (a changed row
 * has the same key and different values in the columns both versions have). Run as a job (`diff/start`, followed
 * through `jobs/progress`, cancelled by `jobs/cancel`); a cancelled or failed diff keeps nothing.
 */
export const diffJobIdSchema = z.string().regex(/^d[A-Za-z0-9_-]{1,64}$/, 'must be a diff job id')

/** Keys held in memory per version (a Map of key → row hash, about 100 bytes a key: ~1 GB would be 10M; we stop at 5M). */
export const DIFF_MAX_KEYS = 5_000_000
/** Keys listed per kind (added, deleted, changed) in a result, as many as a view may name; the counts are always exact. */
export const DIFF_LISTED_KEYS = MAX_VIEW_KEYS

export type DiffKey = number | string

export interface DiffResult {
  table: TableRef
  from: number
  to: number
  /** The key column rows were matched by. */
  key: string
  /** Integer keys (64-bit ones past 2^53 are listed as their digits) or text. */
  keyType: 'integer' | 'text'
  added: number
  deleted: number
  changed: number
  /** Rows with the same key in both versions and the same values. */
  unchanged: number
  /** Keys of the rows of each kind (deleted from `from`, added and changed in `to`), at most {@link DIFF_LISTED_KEYS} each. */
  keys: { added: DiffKey[]; deleted: DiffKey[]; changed: DiffKey[] }
  /** True when a kind has more keys than were listed. */
  keysTruncated: boolean
  /** Columns compared to tell "changed" (those both versions have with the same type). */
  compared: string[]
  /** Schema differences of the two versions. */
  schema: Pick<VersionComparison, 'added' | 'removed' | 'changed'>
  /** True when every compared column of both versions was read (no shortcut from Lance's row addresses). */
  readAllColumns: boolean
  rows: { from: number; to: number }
  elapsedMs: number
}

export interface DiffJobInfo {
  id: string
  kind: 'diff'
  /** `queued`: waiting for a free slot or for memory (see `queueReason`); Cancel ends it at once. */
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
  /** Why a queued job waits, in words (absent once it runs). */
  queueReason?: string
  table: TableRef
  from: number
  to: number
  key: string
  createdAt: number
  finishedAt: number | null
  /** Rows read so far of both versions, of `totalRows` (both versions' row counts). */
  progress: { rows: number; totalRows: number | null }
  error: AppErrorData | null
  /** Once done (never a partial one). */
  result: DiffResult | null
}
