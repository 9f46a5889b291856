import { z } from 'zod'
import type { AppErrorData } from './result'
import type { TableRef } from './types'

/**
 * Column profiles ("Summary"): one streaming scan of a table view (its version and filter) that
 * accumulates per-column statistics, run as a job (`profile/start`, followed through `jobs/progress`
 * events, `jobs/cancel`). A finished profile is kept per table version and filter, so asking again is
 * answered at once and a newer version is computed afresh.
 */
export const profileJobIdSchema = z.string().regex(/^p[A-Za-z0-9_-]{1,64}$/, 'must be a profile job id')

/**
 * Distinct values are counted exactly up to this many per column; past it the count is an estimate. A table
 * with many counted columns counts fewer exactly per column (never below {@link PROFILE_EXACT_DISTINCT_FLOOR}),
 * so the exact counts of one scan hold at most {@link PROFILE_EXACT_DISTINCT_TOTAL} values in all.
 */
export const PROFILE_EXACT_DISTINCT_LIMIT = 100_000
export const PROFILE_EXACT_DISTINCT_FLOOR = 10_000
export const PROFILE_EXACT_DISTINCT_TOTAL = 2_000_000
/** Bars in a histogram (at most). */
export const PROFILE_HISTOGRAM_BINS = 20
/** Top values listed for a text or boolean column. */
export const PROFILE_TOP_VALUES = 5

export type ColumnKind = 'number' | 'integer' | 'date' | 'timestamp' | 'text' | 'boolean' | 'vector' | 'list' | 'other'

/**
 * One histogram bar: rows with `lo <= value < hi` (the last bar includes `hi`). For dates and timestamps
 * `lo`/`hi` are epoch milliseconds (UTC).
 */
export interface HistogramBin {
  lo: number
  hi: number
  count: number
}

export interface NumberStats {
  min: number
  max: number
  mean: number
}

export interface ColumnProfile {
  name: string
  /** The readable Arrow type (as `FieldInfo.type`). */
  type: string
  kind: ColumnKind
  /** Rows where the value is null; null when the column was not read (binary and nested columns: reading their bytes would show nothing more). */
  nulls: number | null
  /**
   * Distinct non-null values: exact (`exact: true`) up to `limit` (see {@link PROFILE_EXACT_DISTINCT_LIMIT}; fewer
   * for long text, whose exact count holds at most 4,000,000 characters), else a HyperLogLog estimate that stays
   * within what is sure — at most the values read, at least the `limit + 1` counted exactly before it — with
   * `low`–`high`, the range the true count lies in with about 95 % confidence (held within the same bounds).
   * Absent where not counted (vectors, lists, binary).
   */
  distinct?: { count: number; exact: boolean; limit: number; low?: number; high?: number }
  /** Numbers, dates (epoch ms, UTC) and timestamps: min / max / mean of the non-null values (NaN values are left out and counted in `nans`). */
  stats?: NumberStats
  /** Floating-point NaN values (not nulls). */
  nans?: number
  histogram?: HistogramBin[]
  /**
   * Text and booleans: the most frequent values, most frequent first. `exact: false` when the column had too many
   * distinct values to count every one; then each value's own `exact` says whether its count is exact (counted
   * since its first row) or a lower bound.
   */
  top?: { values: { value: string; count: number; exact: boolean }[]; exact: boolean }
  /** Text: characters per value; lists: items per list. */
  lengths?: NumberStats
  /** Vector columns (fixed-size lists of floats). */
  vector?: {
    dimension: number
    /** Vectors with at least one NaN item (left out of the norms). */
    nanVectors: number
    /** Vectors whose items are all zero. */
    zeroVectors: number
    /** Vectors bit-for-bit equal to an earlier one (NaN vectors left out), found by a 53-bit hash; null past 2,000,000 distinct vectors (not counted). */
    duplicateVectors: number | null
    /** L2 norms of the vectors without NaN. */
    norms?: NumberStats
    normHistogram?: HistogramBin[]
  }
}

export interface TableProfile {
  table: TableRef
  /** The version these statistics describe (the view's version; a write after it does not change them). */
  version: number
  /** The view's filter, when it had one (the profile is of the matching rows only). */
  filter: string | null
  rows: number
  columns: ColumnProfile[]
  /** When the scan finished (ms since the epoch) and how long it took. */
  computedAt: number
  elapsedMs: number
}

export interface ProfileJobInfo {
  id: string
  kind: 'profile'
  /** `queued`: waiting for a free slot or for memory (see `queueReason`); Cancel ends it at once. */
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
  /** Why a queued job waits, in words (absent once it runs). */
  queueReason?: string
  table: TableRef
  version: number
  filter: string | null
  /** The view's row set (the map's lasso, `rowsets/create`), when it had one: the profile is of those rows only. */
  rowSet: string | null
  /** True when the answer came from the profile kept for this version and filter (no scan ran). */
  cached: boolean
  createdAt: number
  finishedAt: number | null
  progress: { rows: number; totalRows: number | null }
  error: AppErrorData | null
  /** The profile, once done (never a partial one: a cancelled or failed job has none). */
  result: TableProfile | null
}
