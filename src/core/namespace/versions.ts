import type { FieldInfo } from '../../contract/types'
import type { TagInfo, VersionComparison, VersionInfo, VersionOperation, VersionSide } from '../../contract/lifecycle'

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
