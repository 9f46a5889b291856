import type { VersionInfo } from '../../../contract'

export const OPERATION_LABEL: Record<NonNullable<VersionInfo['operation']>, string> = {
  create: 'created',
  append: 'append',
  delete: 'delete',
  update: 'update',
  overwrite: 'overwrite',
  compaction: 'compaction',
  other: 'index or schema change',
}

/** One line of a version list, or a run of appends shown as one entry (an import writes one version per chunk). */
export type VersionEntry = { kind: 'version'; version: VersionInfo } | { kind: 'run'; versions: VersionInfo[] }

/** Runs of at least this many consecutive untagged appends collapse into one entry. */
export const RUN_MIN = 4

/**
 * Newest first. A 1M-row import in 10k-row chunks makes 100 append versions: they show as one entry
 * ("Versions 2–101 · 100 appends"), which opens to the versions themselves.
 */
export function versionEntries(versions: readonly VersionInfo[]): VersionEntry[] {
  const out: VersionEntry[] = []
  let run: VersionInfo[] = []
  const flush = () => {
    if (run.length >= RUN_MIN) out.push({ kind: 'run', versions: [...run].reverse() })
    else for (const v of run) out.push({ kind: 'version', version: v })
    run = []
  }
  for (const v of versions) {
    const joins = v.operation === 'append' && v.tags.length === 0 && (run.length === 0 || run[run.length - 1]!.version === v.version - 1)
    if (!joins) {
      flush()
      if (v.operation === 'append' && v.tags.length === 0) {
        run.push(v)
        continue
      }
      out.push({ kind: 'version', version: v })
      continue
    }
    run.push(v)
  }
  flush()
  return out.reverse()
}
