/**
 * Import of the files people have, against what a user would script instead (part of `npm run bench -- import`).
 *
 * Two files written by DuckDB (its own C++ writers) and cached in BENCH_DIR: a flights-like Parquet file of
 * BENCH_PARQUET_ROWS rows (default 3,000,000; snappy, DuckDB's row groups) and a CSV of about BENCH_CSV_MB
 * megabytes (default 1000) with the same columns (ids, short codes, a timestamp, doubles with nulls, a boolean).
 * In the same run and alternating order, each in its own child process (peak RSS = VmHWM), after `sync` and a
 * warm read of the file:
 *   ours   — the app's pipeline: ImportJobs → openSource (polars native readers where they apply) → writeSource → dir NamespaceClient;
 *   native — the user's script: polars reads the file (readParquet / readCSV, native, multi-threaded) and its
 *            Arrow IPC bytes go to bare @lancedb/lancedb's native createTable.
 *            DuckDB's node client returns no Arrow, so polars is the native reader that can hand Arrow over.
 * Reports every rep, the ratio ours ÷ native (target ≤ 1.2×), peak RSS (target < 700 MB), versions and the load
 * average before and after.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { runOurs, warmReaders } from './importOurs'
import { envInt, peakRssMiB, printResult, runMeasuredChild, watchChildren, type ResultTable } from './lib'

type Kind = 'parquet' | 'csv'
type Variant = 'ours' | 'inline' | 'native'
type ChildRun = { rows: number; ms: number; peakRssMiB: number; peakAnonMiB: number; readerPeakRssMiB: number; versions: number; cpuMs: number }

export interface FileBenchRow {
  kind: Kind
  rows: number
  bytes: number
  variant: Variant
  rep: number
  ms: number
  peakRssMiB: number
  /** Peak of the process's anonymous memory (sampled): RSS without file pages mapped from the input. */
  peakAnonMiB: number
  /** Peak RSS (VmHWM) of the reader process (ours; 0 for inline and native). */
  readerPeakRssMiB: number
  versions: number
  cpuMs: number
}

/** Flights-like rows: what a public data file of this kind holds. */
const SELECT = (rows: number) => `
  SELECT
    i::BIGINT AS id,
    ['AA', 'DL', 'UA', 'WN', 'B6', 'AS', 'NK'][1 + i % 7] AS carrier,
    (i * 7919 % 9000 + 1)::INTEGER AS flight,
    ['JFK', 'LAX', 'ORD', 'ATL', 'DFW', 'DEN', 'SFO', 'SEA', 'BOS', 'MIA'][1 + i % 10] AS origin,
    ['JFK', 'LAX', 'ORD', 'ATL', 'DFW', 'DEN', 'SFO', 'SEA', 'BOS', 'MIA'][1 + (i * 3) % 10] AS dest,
    TIMESTAMP '2024-01-01 00:00:00' + to_seconds(i * 37) AS dep_time,
    CASE WHEN i % 13 = 0 THEN NULL ELSE ((i * 2654435761) % 10000) / 100.0 - 20 END::DOUBLE AS dep_delay,
    CASE WHEN i % 17 = 0 THEN NULL ELSE ((i * 40503) % 100000) / 1000.0 END::DOUBLE AS arr_delay,
    (200 + i * 31 % 2500)::INTEGER AS distance,
    (i % 50 = 0) AS cancelled
  FROM range(${rows}) t(i)`

/** DuckDB writes these rows as about 71 bytes each (10M rows = 707 MB). */
const CSV_BYTES_PER_ROW = 71

async function duckCopy(select: string, path: string, options: string): Promise<void> {
  const { DuckDBInstance } = await import('@duckdb/node-api')
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  try {
    await connection.run(`COPY (${select}) TO '${path.replace(/'/g, "''")}' (${options})`)
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

export async function benchFiles(dir: string): Promise<{ kind: Kind; path: string; rows: number }[]> {
  mkdirSync(dir, { recursive: true })
  const parquetRows = envInt('BENCH_PARQUET_ROWS', 3_000_000)
  const csvRows = Math.round((envInt('BENCH_CSV_MB', 1000) * 1e6) / CSV_BYTES_PER_ROW)
  const out: { kind: Kind; path: string; rows: number }[] = []
  for (const [kind, rows, options] of [
    ['parquet', parquetRows, 'FORMAT parquet'],
    ['csv', csvRows, 'FORMAT csv, HEADER true'],
  ] as const) {
    const path = join(dir, `flights_${rows}.${kind}`)
    if (!existsSync(path)) {
      await duckCopy(SELECT(rows), `${path}.partial`, options)
      renameSync(`${path}.partial`, path)
    }
    out.push({ kind, path, rows })
  }
  return out
}

// ---------------------------------------------------------------- child side

/**
 * What a user scripts: polars reads the file and hands lancedb Arrow. lancedb's public `createTable` takes an
 * apache-arrow Table, which cannot hold polars' Utf8View (file writer) and which lancedb's sanitizer refuses as
 * LargeUtf8 (stream writer); so the IPC bytes go to lancedb's native createTable directly — the fastest path
 * there is, and so the strictest baseline (see src/core/namespace/dir/add.ts createFromIpc).
 */
async function runNative(file: string, root: string): Promise<number> {
  /* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports */
  const pl = require('nodejs-polars') as any
  const lancedb = await import('@lancedb/lancedb')
  const { createFromIpc } = await import('../../src/core/namespace/dir/add')
  const df = file.endsWith('.parquet') ? pl.readParquet(file) : pl.readCSV(file)
  const rows = df.height as number
  const ipc = df.writeIPC() as Buffer
  /* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports */
  const db = await lancedb.connectNamespace('dir', { root })
  await createFromIpc(db, 'bench', [], ipc, 'create')
  return rows
}

async function versionCount(root: string): Promise<number> {
  const lancedb = await import('@lancedb/lancedb')
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable('bench')
  return (await table.listVersions()).length
}

/**
 * The highest anonymous RSS seen, sampled every 20 ms. VmHWM also counts the input file's pages that a reader
 * maps (polars maps a CSV whole; its pages are the page cache, dropped under memory pressure), so a reader that
 * maps a 1 GB file peaks above 1 GB there while its own memory stays small; this tells the two apart.
 */
function sampleAnon(): { stop(): number } {
  let peak = 0
  const sample = () => {
    const kb = Number(/RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0)
    peak = Math.max(peak, kb)
  }
  sample()
  const timer = setInterval(sample, 20)
  return {
    stop: () => {
      clearInterval(timer)
      sample()
      return Math.round(peak / 1024)
    },
  }
}


async function child(variant: string, file: string, root: string): Promise<void> {
  // Load every module first: the clock measures the import, not start-up.
  await import('@lancedb/lancedb')
  await import('apache-arrow')
  await import('../../src/core/namespace/connect')
  await import('../../src/core/namespace/dir')
  await import('../../src/core/import/jobs')
  // The reader's script (bundled from the sources when run by tsx; built beside main in the app) made before the clock.
  await (await import('../../src/core/import/reader/entry')).defaultReaderEntry()
  if (variant === 'native') require('nodejs-polars') // eslint-disable-line @typescript-eslint/no-require-imports
  // `inline`: the file read in this process, as before readers had processes of their own (the boundary's cost).
  if (variant === 'inline') process.env.LCB_IMPORT_READER = 'inline'
  const warm = variant === 'ours' ? await warmReaders(file) : undefined
  const anon = sampleAnon()
  const children = watchChildren()
  const started = process.hrtime.bigint()
  const cpuAtStart = process.cpuUsage()
  const rows = variant === 'native' ? await runNative(file, root) : await runOurs(file, root, warm)
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  const cpu = process.cpuUsage(cpuAtStart)
  const reader = children.stop()
  const peak = peakRssMiB()
  const peakAnonMiB = anon.stop()
  printResult({ rows, ms, peakRssMiB: peak, peakAnonMiB, readerPeakRssMiB: reader.peakRssMiB, versions: await versionCount(root), cpuMs: (cpu.user + cpu.system) / 1000 + reader.cpuMs } satisfies ChildRun)
}

// ---------------------------------------------------------------- parent side

function settle(file: string): void {
  execFileSync('sync')
  const fd = openSync(file, 'r')
  try {
    const buf = Buffer.allocUnsafe(16 * 1024 * 1024)
    while (readSync(fd, buf, 0, buf.length, null) > 0) {
      // reading is the point
    }
  } finally {
    closeSync(fd)
  }
}

export function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
}

export async function runFileBench(dir: string, reps: number, log: (line: string) => void): Promise<{ rows: FileBenchRow[]; before: string; after: string }> {
  const before = loadAverage()
  log(`import files: load average before ${before}`)
  const files = await benchFiles(dir)
  const results: FileBenchRow[] = []
  for (const { kind, path, rows } of files) {
    const bytes = statSync(path).size
    log(`import files: ${kind} ${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(0)} MB`)
    for (let rep = 0; rep < reps; rep++) {
      // BENCH_IMPORT_INLINE=1 adds `inline`: ours with the file read in the importing process (the reader process's cost).
      const variants: Variant[] = process.env.BENCH_IMPORT_INLINE === '1' ? ['ours', 'inline', 'native'] : ['ours', 'native']
      const order = rep % 2 === 0 ? variants : [...variants].reverse()
      for (const variant of order) {
        const root = join(dir, `db_files_${variant}_${kind}`)
        rmSync(root, { recursive: true, force: true })
        settle(path)
        try {
          const r = await runMeasuredChild<ChildRun>(__filename, ['--child', variant, path, root], `${kind} ${variant}`)
          if (r.rows !== rows) throw new Error(`${variant} imported ${r.rows} rows of ${rows}`)
          const row: FileBenchRow = { kind, rows, bytes, variant, rep, ms: Math.round(r.ms), peakRssMiB: r.peakRssMiB, peakAnonMiB: r.peakAnonMiB, readerPeakRssMiB: r.readerPeakRssMiB, versions: r.versions, cpuMs: Math.round(r.cpuMs) }
          results.push(row)
          log(`  ${kind} ${variant} rep ${rep}: ${(row.ms / 1000).toFixed(2)} s, peak RSS ${row.peakRssMiB} MiB (anonymous ${row.peakAnonMiB} MiB)${row.readerPeakRssMiB ? `, reader ${row.readerPeakRssMiB} MiB` : ''}, ${row.versions} versions, CPU ${(row.cpuMs / 1000).toFixed(2)} s`)
        } finally {
          rmSync(root, { recursive: true, force: true })
        }
      }
    }
  }
  const after = loadAverage()
  log(`import files: load average after ${after}`)
  return { rows: results, before, after }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

export function fileBenchTables(results: FileBenchRow[], before: string, after: string): ResultTable[] {
  const summary: (string | number)[][] = []
  for (const kind of ['parquet', 'csv'] as const) {
    const ours = results.filter((r) => r.kind === kind && r.variant === 'ours')
    const native = results.filter((r) => r.kind === kind && r.variant === 'native')
    const inline = results.filter((r) => r.kind === kind && r.variant === 'inline')
    if (!ours.length || !native.length) continue
    const ratio = median(ours.map((o) => o.ms / native.find((n) => n.rep === o.rep)!.ms))
    const inlineRatio = inline.length ? median(ours.map((o) => o.ms / inline.find((n) => n.rep === o.rep)!.ms)) : NaN
    summary.push([
      kind === 'parquet' ? 'Parquet (DuckDB, snappy)' : 'CSV (DuckDB)',
      ours[0]!.rows.toLocaleString('en'),
      (ours[0]!.bytes / 1e6).toFixed(0),
      (median(ours.map((r) => r.ms)) / 1000).toFixed(2),
      (median(native.map((r) => r.ms)) / 1000).toFixed(2),
      `**${ratio.toFixed(2)}×**`,
      Math.max(...ours.map((r) => r.peakRssMiB)),
      Math.max(...ours.map((r) => r.peakAnonMiB)),
      Math.max(...ours.map((r) => r.readerPeakRssMiB)),
      Math.max(...native.map((r) => r.peakRssMiB)),
      Math.max(...ours.map((r) => r.versions)),
      Number.isNaN(inlineRatio) ? '–' : `${inlineRatio.toFixed(2)}×`,
    ])
  }
  return [
    {
      title: 'Files people have: ours vs polars → Arrow → bare @lancedb/lancedb (median)',
      columns: ['file', 'rows', 'MB', 'ours s', 'native s', 'ours ÷ native (target ≤ 1.2×)', 'ours peak RSS MiB (target < 700)', 'ours peak anonymous MiB', 'ours reader process peak RSS MiB', 'native peak RSS MiB', 'ours table versions', 'ours ÷ read in-process (BENCH_IMPORT_INLINE)'],
      rows: summary,
    },
    {
      title: `Files: every rep (load average before ${before}, after ${after})`,
      columns: ['file', 'variant', 'rep', 'import s', 'CPU s (with the reader)', 'rows/s', 'MB/s', 'peak RSS MiB', 'peak anonymous MiB', 'reader process peak RSS MiB', 'table versions'],
      rows: results.map((r) => [r.kind, r.variant, r.rep, (r.ms / 1000).toFixed(2), (r.cpuMs / 1000).toFixed(2), Math.round((r.rows / r.ms) * 1000).toLocaleString('en'), Math.round(r.bytes / 1e6 / (r.ms / 1000)), r.peakRssMiB, r.peakAnonMiB, r.readerPeakRssMiB || '–', r.versions]),
    },
  ]
}

if (require.main === module) {
  const [flag, variant, file, root] = process.argv.slice(2)
  if (flag === '--child') {
    child(variant!, file!, root!).catch((error: unknown) => {
      console.error(error)
      process.exit(1)
    })
  }
}
