import type { FieldInfo } from '../../contract/types'
import type { TableStats, TagInfo, VersionComparison, VersionInfo, VersionOperation, VersionSide } from '../../contract/lifecycle'

/** Lance's per-version totals (the manifest summary lancedb returns as `metadata`). */
export interface VersionTotals {
  total_rows?: string
  total_data_file_rows?: string
  total_deletion_file_rows?: string
  total_data_files?: string
  total_fragments?: string
  total_files_size?: string
}

export interface RawVersion {
  version: number
  timestamp: number
  metadata: Record<string, string>
}

const num = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined
  const n = Number(value)
  return Number.isFinite(n) ? n : undefined
}

/**
 * What made `current`, judged from how Lance's totals moved since `previous`. Lance records the operation in
 * its transaction file, which lancedb does not expose; the totals are recorded for every version.
 */
export function inferOperation(previous: VersionTotals | undefined, current: VersionTotals): VersionOperation | undefined {
  if (!previous) return 'create'
  const rows = [num(previous.total_data_file_rows), num(current.total_data_file_rows)]
  const deleted = [num(previous.total_deletion_file_rows), num(current.total_deletion_file_rows)]
  const files = [num(previous.total_data_files), num(current.total_data_files)]
  if ([...rows, ...deleted, ...files].some((n) => n === undefined)) return undefined
  const [r0, r1] = rows as [number, number]
  const [d0, d1] = deleted as [number, number]
  const [f0, f1] = files as [number, number]
  if (r0 === r1 && d0 === d1 && f0 === f1) return 'other'
  if (f1 < f0 && r1 - d1 === r0 - d0) return 'compaction'
  if (r1 > r0 && d1 === d0) return 'append'
  if (r1 === r0 && d1 > d0) return 'delete'
  if (r1 > r0 && d1 > d0) return 'update'
  return 'overwrite'
}

/** Versions oldest first, each with its row count, inferred operation and tags. */
export function versionInfos(raw: RawVersion[], tags: TagInfo[]): VersionInfo[] {
  const byVersion = new Map<number, string[]>()
  for (const tag of tags) byVersion.set(tag.version, [...(byVersion.get(tag.version) ?? []), tag.name])
  const sorted = [...raw].sort((a, b) => a.version - b.version)
  return sorted.map((v, i) => {
    const rowCount = num(v.metadata.total_rows)
    // The operation only follows from the version right before; after a prune there may be a gap.
    const previous = i > 0 && sorted[i - 1]!.version === v.version - 1 ? sorted[i - 1]!.metadata : undefined
    const operation = i === 0 && v.version !== 1 ? undefined : inferOperation(previous, v.metadata)
    return {
      version: v.version,
      timestamp: v.timestamp,
      ...(rowCount !== undefined ? { rowCount } : {}),
      ...(operation ? { operation } : {}),
      tags: (byVersion.get(v.version) ?? []).sort(),
      totals: v.metadata,
    }
  })
}

/** Schema differences and row counts of two versions. */
export function compareVersions(from: VersionSide, to: VersionSide): VersionComparison {
  const before = new Map(from.schema.map((f) => [f.name, f]))
  const after = new Map(to.schema.map((f) => [f.name, f]))
  const describe = (f: FieldInfo) => `${f.type}${f.nullable ? '' : ' not null'}`
  const changed: VersionComparison['changed'] = []
  for (const [name, f] of after) {
    const old = before.get(name)
    if (old && describe(old) !== describe(f)) changed.push({ name, from: describe(old), to: describe(f) })
  }
  return {
    from,
    to,
    added: to.schema.filter((f) => !before.has(f.name)),
    removed: from.schema.filter((f) => !after.has(f.name)),
    changed,
  }
}

/** Where the rows marked deleted in one version came from (see {@link deletionSources}). */
export interface DeletionSources {
  /** Rows that deletes removed (a merge-insert's deletes too). */
  byDeletes: number
  /** Old copies of rows that updates rewrote: Lance writes an updated row anew and marks its old copy deleted. */
  byUpdates: number
  /** The split is estimated: a compaction purged part of the marks, or versions between are no longer kept. */
  estimated: boolean
}

/**
 * Of the rows marked deleted in `version` (Lance's deletion files: still on disk until a compaction), how many
 * deletes removed and how many are old copies that updates rewrote. Lance records the operation in its
 * transaction file, which lancedb does not expose; the totals of every version tell the two apart: a delete
 * marks rows and writes none, an update marks as many old rows as it writes new ones (a merge-insert writes more:
 * its inserts). Marks left by versions no longer kept (pruned) are neither: the caller names them as such.
 */
export function deletionSources(raw: RawVersion[], version: number): DeletionSources | undefined {
  const sorted = [...raw].filter((v) => v.version <= version).sort((a, b) => a.version - b.version)
  if (sorted.at(-1)?.version !== version) return undefined
  const key = (t: VersionTotals) => [t.total_rows, t.total_data_file_rows, t.total_deletion_file_rows, t.total_data_files, t.total_fragments, t.total_files_size].join(',')
  const seen = new Map<string, { del: number; upd: number; unknown: number }>()
  let state = { del: 0, upd: 0, unknown: 0 }
  let estimated = false
  let previous: VersionTotals | undefined
  for (const [i, v] of sorted.entries()) {
    const d1 = num(v.metadata.total_deletion_file_rows)
    const r1 = num(v.metadata.total_data_file_rows)
    if (d1 === undefined || r1 === undefined) return undefined
    const d0 = previous ? num(previous.total_deletion_file_rows) : undefined
    const r0 = previous ? num(previous.total_data_file_rows) : undefined
    if (d0 === undefined || r0 === undefined) {
      // The oldest version kept: its marks (if any) came from versions no longer listed.
      state = { del: 0, upd: 0, unknown: d1 }
    } else {
      const marked = d1 - d0
      const written = r1 - r0
      const earlier = seen.get(key(v.metadata))
      if (d1 === 0) state = { del: 0, upd: 0, unknown: 0 }
      else if (marked === 0 && written >= 0) state = { ...state }
      else if (marked > 0 && written === 0) state = { ...state, del: state.del + marked }
      else if (marked > 0 && written >= marked) state = { ...state, upd: state.upd + marked }
      else if (marked > 0 && written > 0) state = { ...state, upd: state.upd + written, del: state.del + marked - written }
      else if (earlier) state = { ...earlier } // a restore: that version's manifest again
      else {
        // Marks purged (a compaction) or whole fragments dropped: which ones is not recorded; shrink each share.
        const total = state.del + state.upd + state.unknown
        const scale = total > 0 ? d1 / total : 0
        const del = Math.round(state.del * scale)
        const upd = Math.min(d1 - del, Math.round(state.upd * scale))
        state = { del, upd, unknown: d1 - del - upd }
        estimated = true
      }
      // Versions between were pruned: the step may hold several operations.
      if (v.version !== sorted[i - 1]!.version + 1 && marked !== 0) estimated = true
    }
    seen.set(key(v.metadata), state)
    previous = v.metadata
  }
  return { byDeletes: state.del, byUpdates: state.upd, estimated }
}

/** The stats' split of the rows marked deleted: by deletes, by updates (the rest: versions no longer kept). */
export function splitOf(versions: { version: number; timestamp: Date | string | number; metadata: Record<string, string> }[], version: number): Pick<TableStats, 'deletedByDeletes' | 'rewrittenByUpdates' | 'deletedSplitEstimated'> {
  const split = deletionSources(versions.map((v) => ({ version: v.version, timestamp: new Date(v.timestamp).getTime(), metadata: v.metadata })), version)
  if (!split) return {}
  return { deletedByDeletes: split.byDeletes, rewrittenByUpdates: split.byUpdates, ...(split.estimated ? { deletedSplitEstimated: true } : {}) }
}
