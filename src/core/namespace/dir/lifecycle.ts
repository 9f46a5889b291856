import { Index, type Table as LanceTable } from '@lancedb/lancedb'
import { columnNotFound } from '../errors'
import { indexTypeOf } from '../indexTypes'
import type { ColumnAlteration, IndexInfo, IndexSpec, NewColumn, OptimizeResult, TableStats, TagInfo, VersionInfo } from '../../../contract/lifecycle'
import { splitOf, versionInfos } from '../versions'

/**
 * The lifecycle operations on one open lancedb table (the `dir` client delegates here). Pure lancedb calls;
 * the caller maps errors and validates ids.
 */

export async function listTags(table: LanceTable): Promise<TagInfo[]> {
  const tags = await (await table.tags()).list()
  return Object.entries(tags)
    .map(([name, contents]) => ({ name, version: Number((contents as { version?: number | bigint }).version) }))
    .sort((a, b) => a.name.localeCompare(b.name))
}

export async function listVersions(table: LanceTable): Promise<VersionInfo[]> {
  const [raw, tags] = await Promise.all([table.listVersions(), listTags(table)])
  return versionInfos(
    raw.map((v) => ({ version: v.version, timestamp: new Date(v.timestamp).getTime(), metadata: v.metadata })),
    tags,
  )
}

export async function createTag(table: LanceTable, tag: string, version: number): Promise<void> {
  await (await table.tags()).create(tag, version)
}

export async function deleteTag(table: LanceTable, tag: string): Promise<void> {
  await (await table.tags()).delete(tag)
}

export async function tagVersion(table: LanceTable, tag: string): Promise<number> {
  return (await table.tags()).getVersion(tag)
}

export async function listIndexes(table: LanceTable): Promise<IndexInfo[]> {
  const configs = await table.listIndices()
  return Promise.all(
    configs.map(async (c) => {
      const stats = await table.indexStats(c.name)
      return {
        name: c.name,
        type: c.indexType,
        columns: [...c.columns],
        ...(stats ? { indexedRows: stats.numIndexedRows, unindexedRows: stats.numUnindexedRows } : {}),
        ...(stats?.distanceType ? { distanceType: stats.distanceType } : {}),
        ...rebuildOf(c, stats?.distanceType),
      }
    }),
  )
}


/**
 * The spec that builds an index like `config` again: its type, column and name, and what Lance recorded of its
 * settings (`indexDetails`: the tokenizer of an FTS index, the metric and PQ sub-vectors of a vector index).
 * Lance does not record the number of IVF partitions; a rebuild takes its default, which scales with the rows.
 */
function rebuildOf(config: { name: string; indexType: string; columns: string[]; indexDetails?: unknown }, distanceType: string | undefined): { rebuild?: IndexSpec } {
  const type = indexTypeOf(config.indexType)
  if (!type || config.columns.length !== 1) return {}
  const d = (config.indexDetails ?? {}) as Record<string, unknown>
  const bool = (v: unknown) => (typeof v === 'boolean' ? v : undefined)
  const spec: IndexSpec = { type, column: config.columns[0]!, name: config.name }
  if (type === 'FTS') {
    Object.assign(spec, {
      withPosition: bool(d.with_position),
      language: typeof d.language === 'string' ? d.language : undefined,
      stem: bool(d.stem),
      removeStopWords: bool(d.remove_stop_words),
      lowerCase: bool(d.lower_case),
    })
  }
  if (type === 'IVF_PQ' || type === 'IVF_HNSW_SQ') {
    const metric = String(distanceType ?? d.metric_type ?? '').toLowerCase()
    if (metric === 'l2' || metric === 'cosine' || metric === 'dot') spec.distanceType = metric
    const compression = (d.compression ?? {}) as Record<string, unknown>
    if (type === 'IVF_PQ' && typeof compression.num_sub_vectors === 'number') spec.numSubVectors = compression.num_sub_vectors
    if (type === 'IVF_PQ' && (compression.num_bits === 4 || compression.num_bits === 8)) spec.numBits = compression.num_bits
  }
  return { rebuild: Object.fromEntries(Object.entries(spec).filter(([, v]) => v !== undefined)) as IndexSpec }
}

/** lancedb's index config for `spec`; absent parameters stay absent so Lance picks its defaults. */
export function lanceIndex(spec: IndexSpec): Index {
  const defined = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
  switch (spec.type) {
    case 'BTREE':
      return Index.btree()
    case 'BITMAP':
      return Index.bitmap()
    case 'LABEL_LIST':
      return Index.labelList()
    case 'FTS':
      return Index.fts(defined({ withPosition: spec.withPosition, language: spec.language, stem: spec.stem, removeStopWords: spec.removeStopWords, lowercase: spec.lowerCase }))
    case 'IVF_PQ':
      return Index.ivfPq(defined({ distanceType: spec.distanceType, numPartitions: spec.numPartitions, numSubVectors: spec.numSubVectors, numBits: spec.numBits }))
    case 'IVF_HNSW_SQ':
      return Index.hnswSq(defined({ distanceType: spec.distanceType, numPartitions: spec.numPartitions, m: spec.m, efConstruction: spec.efConstruction }))
  }
}

export function indexName(spec: IndexSpec): string {
  return spec.name ?? `${spec.column}_idx`
}

export async function createIndex(table: LanceTable, spec: IndexSpec): Promise<void> {
  await assertColumns(table, [spec.column])
  await table.createIndex(spec.column, { config: lanceIndex(spec), name: indexName(spec), replace: spec.replace ?? false })
}

export async function tableStats(table: LanceTable): Promise<TableStats> {
  const [stats, versions, version] = await Promise.all([table.stats(), table.listVersions(), table.version()])
  const current = versions.find((v) => v.version === version)?.metadata ?? {}
  const deleted = current.total_deletion_file_rows === undefined ? undefined : Number(current.total_deletion_file_rows)
  const onDisk = current.total_files_size === undefined ? undefined : Number(current.total_files_size)
  return {
    rows: stats.numRows,
    fragments: stats.fragmentStats.numFragments,
    smallFragments: stats.fragmentStats.numSmallFragments,
    ...(deleted !== undefined && Number.isFinite(deleted) ? { deletedRows: deleted, ...splitOf(versions, version) } : {}),
    bytes: onDisk !== undefined && Number.isFinite(onDisk) ? onDisk : stats.totalBytes,
    indexes: stats.numIndices,
    version,
    versions: versions.length,
  }
}

/**
 * Compact files, update indexes, and (when asked) remove versions older than `pruneOlderThanDays`.
 * lancedb's optimize always prunes; "keep every version" is a cutoff at the epoch.
 */
export async function optimize(table: LanceTable, pruneOlderThanDays: number | undefined): Promise<OptimizeResult> {
  const cutoff = pruneOlderThanDays === undefined ? new Date(0) : new Date(Date.now() - pruneOlderThanDays * 86_400_000)
  const stats = await table.optimize({ cleanupOlderThan: cutoff, deleteUnverified: false })
  return {
    fragmentsRemoved: stats.compaction.fragmentsRemoved,
    fragmentsAdded: stats.compaction.fragmentsAdded,
    versionsRemoved: stats.prune.oldVersionsRemoved,
    bytesRemoved: stats.prune.bytesRemoved,
    version: await table.version(),
  }
}

export async function addColumns(table: LanceTable, columns: NewColumn[]): Promise<number> {
  return (await table.addColumns(columns.map((c) => ({ name: c.name, valueSql: c.expression })))).version
}

/** Refuse unknown columns in words before Lance does (its text names internal paths). Nested paths check their top column. */
async function assertColumns(table: LanceTable, paths: string[]): Promise<void> {
  const names = (await table.schema()).fields.map((f) => f.name)
  for (const path of paths) {
    if (!names.includes(path) && !names.includes(path.split('.')[0]!)) throw columnNotFound(path, names)
  }
}

export async function alterColumns(table: LanceTable, alterations: ColumnAlteration[]): Promise<number> {
  await assertColumns(table, alterations.map((a) => a.path))
  return (await table.alterColumns(alterations.map((a) => ({ path: a.path, rename: a.rename, nullable: a.nullable, dataType: a.dataType })))).version
}

export async function dropColumns(table: LanceTable, names: string[]): Promise<number> {
  await assertColumns(table, names)
  return (await table.dropColumns(names)).version
}
