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
