import { z } from 'zod'
import type { AppErrorData } from './result'
import type { TableRef } from './types'

/**
 * The embedding map: every row of a vector column placed in 2-D (PCA fitted on a uniform sample, every row
 * projected while the column streams), run as a job (`map/start`, followed through `jobs/progress`,
 * `jobs/cancel`). The coordinates are kept per table version beside our settings (the side cache), never in the
 * user's catalog, so a map reopens at once; `map/coords` hands them over as Arrow IPC bytes.
 */
export const mapJobIdSchema = z.string().regex(/^m[A-Za-z0-9_-]{1,64}$/, 'must be a map job id')

/** Rows the components are fitted on (spread evenly over the table). */
export const MAP_SAMPLE_ROWS = 2048

export interface MapSummary {
  table: TableRef
  version: number
  column: string
  dimension: number
  /** Rows placed on the map. */
  rows: number
  /** Rows left off: a NaN (or infinite) item, a null vector, or a length other than `dimension`. */
  skipped: { nan: number; nulls: number; wrongDimension: number }
  /** Share of the variance each of the two axes explains (of the sample). */
  explained: [number, number]
  /** How a vector becomes a point: x = v·axes[0] − shift[0], y = v·axes[1] − shift[1] (places search results on the map). */
  projection: { axes: [number[], number[]]; shift: [number, number] }
  computedAt: number
  elapsedMs: number
}

export interface MapJobInfo {
  id: string
  kind: 'map'
  state: 'running' | 'done' | 'failed' | 'cancelled'
  table: TableRef
  version: number
  column: string
  /** True when the coordinates came from the side cache (no scan ran). */
  cached: boolean
  createdAt: number
  finishedAt: number | null
  progress: { rows: number; totalRows: number | null }
  error: AppErrorData | null
  /** Once done (a cancelled or failed job has none, and keeps nothing). */
  result: MapSummary | null
}
