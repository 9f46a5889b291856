import type { VersionInfo } from '../../../contract'

const count = new Intl.NumberFormat('en-US')
export const formatCount = (n: number) => count.format(n)

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v.toFixed(v < 10 ? 1 : 0)} ${units[i]}`
}

export function formatTime(ms: number): string {
  if (!ms) return 'time unknown'
  const d = new Date(ms)
  return d.toLocaleString('en-GB', { year: 'numeric', month: 'short', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
}

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
