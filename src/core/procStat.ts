import { readFileSync } from 'node:fs'

/** Linux's clock tick (USER_HZ), 100 on every architecture Node runs on. */
const TICKS_PER_SECOND = 100
/** The boot time from /proc/stat, read once. */
let bootTimeMs: number | null | undefined

/**
 * A process as Linux's `/proc/<pid>/stat` tells it: its state letter (`Z` a zombie, `X` dead), its start in clock
 * ticks after boot (field 22: fixed for the process's life, exact, unmoved by a clock change), and that start as ms
 * since the epoch (through the boot time; null when /proc/stat cannot say). Null where there is no such process or no
 * /proc (macOS, Windows). The one reader of it for the journal's writers and the temp folders' owners.
 */
export function procStat(pid: number): { state: string; startTicks: string; startedAt: number | null } | null {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // `pid (comm) state ppid …`: comm may hold spaces and parentheses, so fields are counted after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const ticks = fields[19]
  if (!ticks || !/^\d+$/.test(ticks)) return null
  if (bootTimeMs === undefined) {
    try {
      const line = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))
      bootTimeMs = line ? Number(line[1]) * 1000 : null
    } catch {
      bootTimeMs = null
    }
  }
  const startedAt = bootTimeMs === null ? null : bootTimeMs + (Number(ticks) / TICKS_PER_SECOND) * 1000
  return { state: fields[0] ?? '', startTicks: ticks, startedAt }
}

/**
 * Whether the writer that left a mark (a journal entry, a staging table, an upload folder) with this process id
 * may still run. `since` (ms since epoch) is a moment that writer was alive — when it made the mark — and tells
 * it apart from a later process that got the same id.
 *
 * `kill(pid, 0)` alone says yes too often: it succeeds on a zombie (a process killed whose parent never waits
 * for it: a writer orphaned by its launcher, under a PID 1 that does not reap — seen in containers, where a
 * kill -9'd harness left its staging table forever), and on an unrelated process that reuses the id (in a
 * container a restarted server often gets the same small pid, even our own). On Linux /proc tells both apart.
 */
export function isAlive(pid: number, since?: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  if (typeof since !== 'number' || !Number.isFinite(since)) since = undefined
  if (pid === process.pid) return since === undefined || PROCESS_STARTED_AT <= since + START_SLACK_MS
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false // EPERM: it runs, as another user
  }
  const found = procStat(pid)
  if (!found) return true // not Linux, or it ended just now: the kill test above is all we know
  if (found.state === 'Z' || found.state === 'X') return false
  return since === undefined || found.startedAt === null || found.startedAt <= since + START_SLACK_MS
}

/**
 * Process start times are known to the clock tick, boot time to the second, and a mark's time comes from the file
 * system: a process that started this much after a mark was made is not the one that made it.
 */
const START_SLACK_MS = 2000
const PROCESS_STARTED_AT = Date.now() - process.uptime() * 1000
