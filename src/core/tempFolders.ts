import { execFileSync } from 'node:child_process'
import { lstat, mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isAlive, procStat } from './procStat'

/**
 * Temp folders that name their owner: `<prefix><pid>-<start>-XXXXXX`, where `<start>` is when that process started
 * (see {@link PROCESS_START}). A kill -9 leaves its folders behind; the next start deletes those whose owner is gone
 * — a pid alone is not enough: a later process may get the same id (in a container a restarted app often does), and
 * its start time differs. Every temp folder the app makes goes through here: staged uploads (`lcb-uploads-`), the
 * pipes of native reads (`lcb-native-`), the manifest links of directory catalogs (`lcb-manifest-`, each holding a
 * symlink into a catalog), download exports (`lcb-exports-`) the SQL engine's spill and hand-over folder (`lcb-sql-`) and the query results opened as tables (`lcb-results-`).
 */
export const TEMP_PREFIXES = {
  uploads: 'lcb-uploads-',
  native: 'lcb-native-',
  manifest: 'lcb-manifest-',
  exports: 'lcb-exports-',
  sql: 'lcb-sql-',
  results: 'lcb-results-',
} as const

/**
 * How far apart two readings of one process's start may be when they are wall-clock times (the `m` form): ps gives
 * the elapsed time to the second, and our own reading (now − uptime) is taken a moment after the start.
 */
const START_SLACK_MS = 3000

/**
 * A process's start as written in folder names:
 * - `t<ticks>` on Linux: field 22 of `/proc/<pid>/stat` (clock ticks after boot). It is fixed for the process's
 *   life and exact, so it tells a reused pid apart even within the same second, and a clock change does not move it.
 * - `m<ms since the epoch>` elsewhere (macOS, Windows, a Linux without /proc): our own start as `Date.now() −
 *   process.uptime()`, read once. Another process's start is then read from `ps -o etime=` (elapsed time, in the
 *   same format on BSD and procps), to the second, so the comparison allows {@link START_SLACK_MS}. Without `ps`
 *   (Windows) only `kill(pid, 0)` is known: a folder whose pid runs is kept (a leftover folder is cheaper than
 *   deleting a live process's files).
 */
export const PROCESS_START = linuxStart(process.pid)?.stamp ?? `m${Math.round(Date.now() - process.uptime() * 1000)}`

/** A process's state and its start as written in folder names (`t<ticks>`), from /proc (null elsewhere). */
function linuxStart(pid: number): { state: string; stamp: string; startMs: number | null } | null {
  const stat = procStat(pid)
  return stat && { state: stat.state, stamp: `t${stat.startTicks}`, startMs: stat.startedAt }
}

/**
 * A new folder `<prefix><pid>-<start>-XXXXXX` in `dir` (the system's temp folder unless told), named after this
 * process so that {@link removeStaleTempFolders} can tell a killed run's folder from a live one.
 */
export function makeTempFolder(prefix: string, dir = tmpdir()): Promise<string> {
  return mkdtemp(join(dir, `${prefix}${process.pid}-${PROCESS_START}-`))
}

/** Delete the `<prefix>…` folders in `dir` whose owner is gone; returns their paths. */
export function removeStaleTempFolders(prefix: string, dir = tmpdir()): Promise<string[]> {
  return sweepTempFolders([prefix], dir)
}

/**
 * Delete the folders in `dir` made by {@link makeTempFolder} with any of `prefixes` whose owner is gone (and those of
 * the earlier `<prefix><pid>-XXXXXX` form whose pid is gone); returns their paths. Only folders of this user are
 * looked at. A folder is removed without following the symlinks it holds (a manifest folder links into a catalog:
 * the link goes, the catalog stays). A folder that cannot be removed is left for the next start.
 */
export async function sweepTempFolders(prefixes: readonly string[], dir = tmpdir()): Promise<string[]> {
  const removed: string[] = []
  const uid = process.getuid?.()
  const patterns = prefixes.map((prefix) => {
    const quoted = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    return { owned: new RegExp(`^${quoted}(\\d+)-([tm]\\d+)-[^-]+$`), pidOnly: new RegExp(`^${quoted}(\\d+)-[^-]+$`) }
  })
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    let stale: (() => Promise<boolean>) | null = null
    for (const { owned, pidOnly } of patterns) {
      const match = owned.exec(name)
      if (match) {
        stale = async () => !ownerRuns(Number(match[1]), match[2]!)
        break
      }
      const old = pidOnly.exec(name)
      if (old) {
        // The earlier form: the folder's time is a moment its process was alive (a later one with the id is another).
        stale = async () => !isAlive(Number(old[1]), await stat(join(dir, name)).then((info) => info.mtimeMs, () => undefined))
        break
      }
    }
    if (!stale) continue
    const path = join(dir, name)
    try {
      const info = await lstat(path)
      if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) continue
      if (!(await stale())) continue
      await rm(path, { recursive: true, force: true })
      removed.push(path)
    } catch {
      // Gone meanwhile, or not ours to remove: the next start tries again.
    }
  }
  return removed
}

/** The folders no module of their own sweeps (uploads and native pipes are swept by the import module). */
const SWEPT_AT_START = [TEMP_PREFIXES.manifest, TEMP_PREFIXES.exports, TEMP_PREFIXES.sql, TEMP_PREFIXES.results]
let startSweep: Promise<string[]> | undefined

/**
 * Sweep the manifest and export folders of processes that are gone, once per process (the service and the REST
 * server call it as they start; later calls return the same sweep).
 */
export function sweepTempFoldersAtStart(): Promise<string[]> {
  startSweep ??= sweepTempFolders(SWEPT_AT_START).catch(() => [])
  return startSweep
}

/** Whether the process that made a folder named with `pid` and `start` (a {@link PROCESS_START}) still runs. */
export function ownerRuns(pid: number, start: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  if (pid === process.pid) return start === PROCESS_START
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false // EPERM: it runs, as another user
  }
  const linux = linuxStart(pid)
  if (linux) {
    // A zombie (killed, not yet reaped by its parent) still answers kill(pid, 0); it holds no folder any more.
    if (linux.state === 'Z' || linux.state === 'X') return false
    if (start.startsWith('t')) return linux.stamp === start
    return linux.startMs === null || Math.abs(linux.startMs - Number(start.slice(1))) <= START_SLACK_MS
  }
  if (!start.startsWith('m')) return true // a /proc stamp, and no /proc to compare it with
  const elapsed = processElapsedSeconds(pid)
  return elapsed === null || Math.abs(Date.now() - elapsed * 1000 - Number(start.slice(1))) <= START_SLACK_MS
}

/** Seconds since process `pid` started, from `ps -o etime=` (`[[dd-]hh:]mm:ss`); null when ps cannot say. */
export function processElapsedSeconds(pid: number): number | null {
  try {
    const text = execFileSync('ps', ['-o', 'etime=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const match = /^(?:(?:(\d+)-)?(\d+):)?(\d+):(\d+)$/.exec(text)
    if (!match) return null
    const [, days, hours, minutes, seconds] = match
    return ((Number(days ?? 0) * 24 + Number(hours ?? 0)) * 60 + Number(minutes)) * 60 + Number(seconds)
  } catch {
    return null
  }
}
