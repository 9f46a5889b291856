import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

/** One benchmark section: it measures and returns tables; the runner prints and saves them. */
export interface Section {
  title: string
  run(context: BenchContext): Promise<Report>
}

export interface BenchContext {
  /** Cache directory for generated data (BENCH_DIR, default `.tmp/bench`). */
  dir: string
  log(message: string): void
}

export interface ResultTable {
  title: string
  columns: string[]
  rows: (string | number)[][]
}

export interface Report {
  /** Lines shown before the tables (sizes, settings). */
  notes: string[]
  tables: ResultTable[]
}

export function envInt(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw.replace(/_/g, ''))
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a whole number ≥ 1 (got ${raw})`)
  return value
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

export async function time<T>(work: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now()
  const result = await work()
  return [performance.now() - start, result]
}

/**
 * Run `ours` and `bare` back to back `reps` times, alternating which goes first (ABBA) so the order does
 * not favour either; after `warmup` unmeasured rounds. Returns medians and the median of per-rep ratios.
 */
export async function compare(
  ours: () => Promise<unknown>,
  bare: () => Promise<unknown>,
  { reps, warmup = 3 }: { reps: number; warmup?: number },
): Promise<{ ours: number; bare: number; ratio: number; reps: { ours: number; bare: number; ratio: number }[] }> {
  for (let i = 0; i < warmup; i++) {
    await ours()
    await bare()
  }
  const o: number[] = []
  const b: number[] = []
  const ratios: number[] = []
  for (let i = 0; i < reps; i++) {
    let to: number
    let tb: number
    if (i % 2 === 0) {
      ;[to] = await time(ours)
      ;[tb] = await time(bare)
    } else {
      ;[tb] = await time(bare)
      ;[to] = await time(ours)
    }
    o.push(to)
    b.push(tb)
    ratios.push(to / tb)
  }
  return { ours: median(o), bare: median(b), ratio: median(ratios), reps: o.map((ours, i) => ({ ours, bare: b[i]!, ratio: ratios[i]! })) }
}

export const ms = (value: number) => (value < 10 ? value.toFixed(2) : value.toFixed(1))
export const ratio = (value: number) => `${value.toFixed(2)}×`
export const verdict = (value: number, target: number) => (value <= target ? `ok (≤ ${target}×)` : `**over** (target ≤ ${target}×)`)
export const count = (value: number) => value.toLocaleString('en-US')

export function markdownTable(table: ResultTable): string {
  const line = (cells: (string | number)[]) => `| ${cells.map(String).join(' | ')} |`
  return [`#### ${table.title}`, '', line(table.columns), line(table.columns.map(() => '---')), ...table.rows.map(line)].join('\n')
}

export interface ServerProcess {
  url: string
  child: ChildProcess
}

/**
 * `src/server/cli.ts` in its own process with `args` (`--root`, `--api-key`, …) on a free port; answers once it
 * prints where it listens. `env` replaces the inherited environment when given.
 */
export async function spawnServer(args: string[], env?: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '../../src/server/cli.ts'), '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    ...(env ? { env } : {}),
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening on (\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
  })
  return { url, child }
}

/**
 * This process's own peak RSS (MiB): VmHWM, the high-water mark of its address space. Not
 * `process.resourceUsage().maxRSS`: Linux carries a process's maxrss across exec, so a child started by a large
 * process reports at least the RSS its parent had when it forked (a map job spawned twice by a process that had done
 * the bench's work read 797.34 MiB both times; its own VmHWM was 595–607 MiB). Elsewhere (no /proc), maxRSS is
 * what there is.
 */
export function peakRssMiB(): number {
  if (!existsSync('/proc/self/status')) return Math.round(process.resourceUsage().maxRSS / 1024)
  const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0)
  return Math.round(kb / 1024)
}

/**
 * The processes this one starts whose command matches (an import's reader process, src/core/import/reader), measured while they run: the
 * highest VmHWM any of them reached (sampled every 50 ms from /proc: a child's high-water mark only grows, so a
 * sample before it ends sees its peak, short of the last 50 ms) and the CPU of the children waited for since the
 * start (`cutime` + `cstime` of /proc/self/stat: every thread of every child that has ended — a reader, and mkfifo). Linux only (zeros
 * elsewhere).
 */
export function watchChildren(command = /importReader/): { stop(): { peakRssMiB: number; cpuMs: number } } {
  const ticksPerMs = 100 / 1000 // USER_HZ, 100 on Linux
  const childTicks = () => {
    if (!existsSync('/proc/self/stat')) return 0
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ')
    return Number(fields[13]) + Number(fields[14]) // cutime, cstime (fields 16 and 17 of stat)
  }
  const startTicks = childTicks()
  let peakKb = 0
  const sample = () => {
    if (!existsSync('/proc')) return
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      try {
        const status = readFileSync(`/proc/${entry}/status`, 'utf8')
        if (Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]) !== process.pid) continue
        if (!command.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) continue // not tsx's esbuild service
        peakKb = Math.max(peakKb, Number(/^VmHWM:\s+(\d+)/m.exec(status)?.[1] ?? 0))
      } catch {
        // ended meanwhile
      }
    }
  }
  const timer = setInterval(sample, 50)
  return {
    stop: () => {
      clearInterval(timer)
      sample()
      return { peakRssMiB: Math.round(peakKb / 1024), cpuMs: Math.round((childTicks() - startTicks) / ticksPerMs) }
    },
  }
}

/** The line a measuring child process prints its result on (`RESULT <json>`), read by {@link runMeasuredChild}. */
export function printResult(result: unknown): void {
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`)
}

/**
 * Run `script` with tsx in a fresh process (so its peak RSS is its own) and return the JSON it printed with
 * {@link printResult}; a failure carries the last lines of its stderr (Lance's WARN lines left out).
 */
export function runMeasuredChild<T>(script: string, args: string[], label: string): Promise<T> {
  const root = join(__dirname, '../..')
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(join(root, 'node_modules', '.bin', 'tsx'), [script, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()))
    proc.stderr.on('data', (d: Buffer) => (err += d.toString()))
    proc.on('error', reject)
    proc.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '))
      if (code !== 0 || !line) reject(new Error(`${label} child exited ${code}: ${err.split('\n').filter((l) => !l.includes('WARN')).slice(-8).join('\n')}`))
      else resolvePromise(JSON.parse(line.slice('RESULT '.length)) as T)
    })
  })
}

/** The 1-, 5- and 15-minute load averages, as the bench notes quote them ("12.3 / 11.0 / 9.8"). */
export const loadAverages = (): string => loadavg().map((l) => l.toFixed(1)).join(' / ')
