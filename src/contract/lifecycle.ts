import { z } from 'zod'
import type { FieldInfo } from './types'

/**
 * Table lifecycle: versions and tags, indexes, stats and maintenance, schema changes.
 * Types shared by core and renderer; input schemas for the contract methods in api.ts.
 */

/**
 * What made a version. Lance keeps the operation in its transaction files, which lancedb 0.31.0 does not
 * expose; we infer it from the totals Lance records for every version (rows, data files, deletions).
 * `other` = no data changed (an index, a schema or metadata change, or a restore of equal data).
 */
export type VersionOperation = 'create' | 'append' | 'delete' | 'update' | 'overwrite' | 'compaction' | 'other'

export interface VersionInfo {
  version: number
  /** ms since epoch */
  timestamp: number
  /** Rows in the table at this version (Lance's `total_rows`), when recorded. */
  rowCount?: number
  operation?: VersionOperation
  /** Tags that point at this version. */
  tags: string[]
  /** Lance's recorded totals for this version (`total_rows`, `total_files_size`, …), as Lance spells them. */
  totals?: Record<string, string>
}

export interface TagInfo {
  name: string
  version: number
}

export interface VersionSide {
  version: number
  rowCount: number
  schema: FieldInfo[]
}

export interface VersionComparison {
  from: VersionSide
  to: VersionSide
  /** Columns in `to` but not in `from`. */
  added: FieldInfo[]
  /** Columns in `from` but not in `to`. */
  removed: FieldInfo[]
  /** Columns in both whose type or nullability differ. */
  changed: { name: string; from: string; to: string }[]
}

export const indexTypes = ['BTREE', 'BITMAP', 'LABEL_LIST', 'FTS', 'IVF_PQ', 'IVF_HNSW_SQ'] as const
export type IndexType = (typeof indexTypes)[number]
export const vectorIndexTypes: readonly IndexType[] = ['IVF_PQ', 'IVF_HNSW_SQ']

export interface IndexInfo {
  name: string
  /** Lance's name for the type, e.g. `BTree`, `Bitmap`, `IVF_PQ`, `FTS`. */
  type: string
  columns: string[]
  indexedRows?: number
  unindexedRows?: number
  distanceType?: string
  /** How to build this index again (type, column, name and the settings Lance recorded); absent when unknown. */
  rebuild?: IndexSpec
}

const count = (max: number) => z.number().int().min(1).max(max)

/** An index to create; absent parameters take Lance's defaults (which scale with the table). */
export const indexSpecSchema = z.object({
  column: z.string().min(1).max(1024),
  type: z.enum(indexTypes),
  /** Default: `<column>_idx`. */
  name: z.string().regex(/^[A-Za-z0-9_.-]{1,128}$/, 'must be letters, digits, _ . -').optional(),
  replace: z.boolean().optional(),
  // vector
  distanceType: z.enum(['l2', 'cosine', 'dot']).optional(),
  numPartitions: count(1_000_000).optional(),
  numSubVectors: count(65_536).optional(),
  numBits: z.union([z.literal(4), z.literal(8)]).optional(),
  m: count(1_000).optional(),
  efConstruction: count(100_000).optional(),
  // full text
  withPosition: z.boolean().optional(),
  language: z.string().max(64).optional(),
  stem: z.boolean().optional(),
  removeStopWords: z.boolean().optional(),
  lowerCase: z.boolean().optional(),
})
export type IndexSpec = z.infer<typeof indexSpecSchema>

export interface TableStats {
  rows: number
  fragments: number
  /** Fragments small enough for compaction to merge. */
  smallFragments: number
  /** Rows marked deleted (still on disk until compaction). */
  deletedRows?: number
  /** Of `deletedRows`: rows that deletes removed (a merge-insert's deletes too). */
  deletedByDeletes?: number
  /**
   * Of `deletedRows`: old copies of rows that updates rewrote (Lance writes an updated row anew and marks the old
   * copy deleted). The rest of `deletedRows`, if any, was marked by versions no longer kept.
   */
  rewrittenByUpdates?: number
  /** The split is estimated (a compaction purged part of the marks, or versions between were pruned); the total is exact. */
  deletedSplitEstimated?: boolean
  /** Bytes of the table's data files (Lance's `total_files_size`, else `totalBytes`). */
  bytes: number
  indexes: number
  version: number
  versions: number
}

/**
 * A write that an old writer's reads do not survive: after this app (lancedb 0.31) builds an index on, or
 * optimizes, a table in the legacy (v1) data format, vectordb 0.4.x's own filtered queries on it panic. The core
 * refuses such a write unless the input says the user was told and agreed (`true`).
 */
export const acknowledgeLegacySchema = z.boolean().optional()

export const optimizeInputSchema = z.object({
  /** Remove versions older than this many days (0 = every version but the latest). Absent = keep every version. */
  pruneOlderThanDays: z.number().min(0).max(36_500).optional(),
  /** The table is in the legacy data format: optimize it anyway (see {@link acknowledgeLegacySchema}). */
  acknowledgeLegacy: z.boolean().optional(),
})
export type OptimizeOptions = z.infer<typeof optimizeInputSchema>

export interface OptimizePreview {
  /** Fragments compaction would rewrite (small ones), 0 = nothing to compact. */
  fragmentsToCompact: number
  deletedRowsToPurge: number
  /** Versions the prune would remove (never the latest, never a tagged one). */
  versionsToRemove: number[]
  /** Indexes with unindexed rows, which "update indexes" would bring up to date. */
  indexesToUpdate: string[]
  /** Index builds running or waiting on this table in the app: Optimize is refused until they end. */
  indexBuildsRunning?: string[]
  /**
   * The table's data format (`legacy`, `2.0`, `2.1`, …; null or absent when it cannot be read cheaply). On `legacy`
   * the confirmation says what Optimize does to the old writer's reads, and `tables/optimize` needs `acknowledgeLegacy`.
   */
  dataFormat?: string | null
}

/** What restoring a version does to the indexes (a restore writes that version's manifest, indexes included). */
export interface RestorePreview {
  version: number
  latest: number
  rowCount?: number
  /** Indexes of the latest version that the restored version has too: they stay, valid for its rows. */
  kept: string[]
  /** Indexes of the latest version that the restored version does not have: gone after the restore unless rebuilt. */
  lost: LostIndex[]
  /** Indexes the restored version had that the latest no longer has: they come back. */
  back: string[]
  /** Index builds running or waiting on this table in the app: Restore is refused until they end. */
  indexBuildsRunning: string[]
}

export interface LostIndex {
  name: string
  type: string
  columns: string[]
  /** The build that makes it again on the restored version, or null when the app cannot (see `reason`). */
  rebuild: IndexSpec | null
  reason?: string
}

export interface OptimizeResult {
  fragmentsRemoved: number
  fragmentsAdded: number
  versionsRemoved: number
  bytesRemoved: number
  version: number
}

export const newColumnSchema = z.object({
  name: z.string().min(1).max(1024),
  /** A SQL expression over the existing columns, e.g. `id * 2` or `CAST(NULL AS string)`. */
  expression: z.string().min(1).max(16_384),
})
export type NewColumn = z.infer<typeof newColumnSchema>

/** Data types a column can be cast to (Lance allows casts within a family: int→wider int, float↔float, string→large string). */
export const castTypes = ['int8', 'int16', 'int32', 'int64', 'float16', 'float32', 'float64', 'string', 'large_string', 'binary', 'large_binary'] as const

export const columnAlterationSchema = z.object({
  path: z.string().min(1).max(1024),
  rename: z.string().min(1).max(1024).optional(),
  nullable: z.boolean().optional(),
  dataType: z.enum(castTypes).optional(),
})
export type ColumnAlteration = z.infer<typeof columnAlterationSchema>

/** Column types the schema editor offers (create an empty table). */
export const columnTypes = ['int8', 'int16', 'int32', 'int64', 'float16', 'float32', 'float64', 'string', 'bool', 'date', 'timestamp', 'binary', 'vector', 'list', 'struct'] as const
export type ColumnType = (typeof columnTypes)[number]
export const timeUnits = ['s', 'ms', 'us', 'ns'] as const

export interface ColumnSpec {
  name: string
  type: ColumnType
  nullable: boolean
  /** timestamp */
  unit?: (typeof timeUnits)[number]
  /** timestamp: an IANA zone or offset (`UTC`, `Europe/Paris`, `+02:00`); absent = no zone. */
  timezone?: string
  /** vector: the dimension (fixed-size list of float32, or `vectorType`). */
  dimension?: number
  vectorType?: 'float16' | 'float32' | 'float64'
  /** list: the element. */
  item?: ColumnSpec
  /** struct: the fields. */
  fields?: ColumnSpec[]
}

/** Deepest nesting of lists and structs accepted (bounded work at the boundary). */
export const MAX_COLUMN_DEPTH = 8

export const columnSpecSchema: z.ZodType<ColumnSpec> = z.lazy(() =>
  z.object({
    name: z.string().min(1, 'must not be empty').max(1024),
    type: z.enum(columnTypes),
    nullable: z.boolean(),
    unit: z.enum(timeUnits).optional(),
    timezone: z.string().regex(/^[A-Za-z0-9_+:/-]{1,64}$/, 'must be a time zone like UTC, Europe/Paris or +02:00').optional(),
    dimension: z.number().int().min(1).max(65_536).optional(),
    vectorType: z.enum(['float16', 'float32', 'float64']).optional(),
    item: columnSpecSchema.optional(),
    fields: z.array(columnSpecSchema).max(1000).optional(),
  }),
)

/** What a cascading namespace drop would delete (shown in its confirmation). */
export interface NamespaceContents {
  namespaces: string[]
  tables: string[]
  truncated: boolean
}

export const propertiesSchema = z
  .record(z.string().min(1).max(256), z.string().max(4096))
  .refine((p) => Object.keys(p).length <= 100, 'at most 100 properties')
