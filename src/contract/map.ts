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

/**
 * How the points are laid out: `pca` projects every row on the two principal components; `umap` lays out a
 * sample the user sizes with UMAP and places every other row at the weighted mean of its nearest sample rows
 * (found in a 16-d PCA of the column), so a million rows cost one scan plus a bounded search each.
 */
export const mapMethodSchema = z.enum(['pca', 'umap'], { message: 'The map method must be "pca" or "umap"' })
export type MapMethod = z.infer<typeof mapMethodSchema>

/** Rows a UMAP layout may be fitted on: fewer says little, more takes minutes (UMAP is quadratic-ish in JS). */
export const UMAP_SAMPLE = { min: 1000, max: 20_000, default: 5000 } as const
const sampleMessage = `A UMAP sample is a whole number of rows from ${UMAP_SAMPLE.min.toLocaleString('en')} to ${UMAP_SAMPLE.max.toLocaleString('en')}`
export const umapSampleSchema = z.number({ message: sampleMessage }).int({ message: sampleMessage }).min(UMAP_SAMPLE.min, { message: sampleMessage }).max(UMAP_SAMPLE.max, { message: sampleMessage })

export interface MapSummary {
  table: TableRef
  version: number
  column: string
  dimension: number
  /** How the points were laid out (maps kept before methods existed are `pca`). */
  method: MapMethod
  /** Rows the layout was fitted on: the PCA's components, or the UMAP layout (the rest placed by their nearest sample rows). */
  sample: number
  /** Rows placed on the map. */
  rows: number
  /** Rows left off: a NaN (or infinite) item, a null vector, or a length other than `dimension`. */
  skipped: { nan: number; nulls: number; wrongDimension: number }
  /** Share of the variance each of the two axes explains (of the sample); for UMAP, of the PCA the neighbours are found in. */
  explained: [number, number]
  /**
   * How a vector becomes a point: x = v·axes[0] − shift[0], y = v·axes[1] − shift[1] (places search results on the
   * map). Null for UMAP, whose layout is no linear map of the vector.
   */
  projection: { axes: [number[], number[]]; shift: [number, number] } | null
  computedAt: number
  elapsedMs: number
}

/**
 * The step a UMAP map is at, for words in the panel ("Fitting UMAP: epoch 120 of 200"): `done` of `total` units
 * (null when the step cannot count), each step in this order: `sample` rows read, `basis` passes of the k-d PCA
 * the neighbours are found in, `neighbours` sample rows whose nearest ones are found, `graph` UMAP's fuzzy graph
 * (one step), `epochs` of the layout, `place` rows of the table placed. A PCA map, and a kept one, has none.
 */
export const mapPhaseSchema = z.object({
  name: z.enum(['sample', 'basis', 'neighbours', 'graph', 'epochs', 'place']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative().nullable(),
})
export type MapPhase = z.infer<typeof mapPhaseSchema>

/** A map job's progress: rows placed so far (of the table's rows once known), and for UMAP the step it is at. */
export const mapProgressSchema = z.object({
  rows: z.number().int().nonnegative(),
  totalRows: z.number().int().nonnegative().nullable(),
  phase: mapPhaseSchema.optional(),
})
export type MapProgress = z.infer<typeof mapProgressSchema>

export interface MapJobInfo {
  id: string
  kind: 'map'
  /** `queued`: waiting for a free slot or for memory (see `queueReason`); Cancel ends it at once. */
  state: 'queued' | 'running' | 'done' | 'failed' | 'cancelled'
  /** Why a queued job waits, in words (absent once it runs). */
  queueReason?: string
  table: TableRef
  version: number
  column: string
  method: MapMethod
  /** Rows the UMAP layout is fitted on (null for PCA). */
  sample: number | null
  /** True when the coordinates came from the side cache (no scan ran). */
  cached: boolean
  createdAt: number
  finishedAt: number | null
  progress: MapProgress
  error: AppErrorData | null
  /** Once done (a cancelled or failed job has none, and keeps nothing). */
  result: MapSummary | null
}
