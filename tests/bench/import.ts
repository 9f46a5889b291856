/**
 * Import benchmark (`npm run bench`, or `npx tsx bench/import.ts` alone).
 *
 * For each size (default 100k and 1M rows; `BENCH_ROWS=20000` or `BENCH_ROWS=20000,50000` to shrink)
 * an Arrow IPC file `{id int64, label utf8, score float64, vector FixedSizeList<Float32>[768]}` of
 * random floats in 10k-row batches (~3.1 GB at 1M rows) is generated once through a bounded sink and
 * cached in BENCH_DIR (default .tmp/bench). Then, in the same run and alternating order (ABBA when
 * BENCH_REPS ≥ 2), each in its own child process so peak RSS (VmHWM) is its own, each after `sync`
 * and a warm read of the source (so one run's write-back does not land in the next):
 *   ours — the app's pipeline: ImportJobs → openSource → writeSource → dir NamespaceClient (the file's record
 *          batches handed to lancedb's native add as their message bytes, see src/core/arrow/ipc/frame.ts);
 *   bare — the best bare @lancedb/lancedb streamed import measured in perf-baselines §3:
 *          Arrow file reader, createTable(first batch), then add(batch) with one add in flight.
 *   polars — the app's pipeline on the same rows written by polars (Utf8View labels, ZSTD buffers);
 *   dd — the physical limit: `dd if=<source> of=<tmp> bs=4M conv=fsync`, the same bytes to the same disk.
 * Every import ends with an fsync of the table directory (timed apart), so import + fsync ÷ dd
 * compares like with like. Reports the throughput ratios ours/bare (target ≥ 0.9) and polars/ours
 * (target ≥ 0.9), our peak RSS (target < 700 MB at 3 GB), every rep and the load average before and
 * after, to tests/bench/results/import.md.
 */
import { execFileSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { runOurs, warmReaders } from './importOurs'
import { peakRssMiB, printResult, runMeasuredChild, watchChildren, type Report, type Section } from './lib'

import {
  AsyncByteQueue,
  Field,
  FixedSizeList,
  Float32,
  Float64,
  Int64,
  RecordBatch,
  RecordBatchFileWriter,
  RecordBatchReader,
  Schema,
  Struct,
  Table,
  Utf8,
  makeData,
  type AsyncRecordBatchFileReader,
} from 'apache-arrow'

/** What one measured import child reports. */
type ChildRun = { rows: number; ms: number; fsyncMs: number; peakRssMiB: number; readerPeakRssMiB: number; versions: number; cpuMs: number }

type Variant = 'ours' | 'inline' | 'bare' | 'polars' | 'dd'

const DIM = 768
const BATCH_ROWS = 10_000
const ROOT = resolve(__dirname, '../..')

export interface ImportBenchRow {
  rows: number
  bytes: number
  variant: Variant
  rep: number
  ms: number
  /** fsync of every file and folder of the table after the import (dd: 0, its fsync is in `ms`). */
  fsyncMs: number
  rowsPerSecond: number
  mbPerSecond: number
  peakRssMiB: number
  /** Peak RSS (VmHWM) of the reader process that read the file (ours, polars; 0 when it was read in the importing process). */
  readerPeakRssMiB: number
  /** Lance versions of the imported table (dd: 0). */
  versions: number
  /** CPU time of the import process and its reader process (user + system, every thread; dd: 0): less sensitive to the machine's load than `ms`. */
  cpuMs: number
}

// ---------------------------------------------------------------- data generation

const SCHEMA = new Schema([
  new Field('id', new Int64(), false),
  new Field('label', new Utf8(), false),
  new Field('score', new Float64(), false),
  new Field('vector', new FixedSizeList(DIM, new Field('item', new Float32(), true)), false),
])

/** A sink that writes synchronously to a file descriptor: the writer's queue never grows (perf-baselines §1). */
class FdSink extends AsyncByteQueue {
  constructor(private readonly fd: number) {
    super()
  }
  override write(value: ArrayBufferView | ArrayBuffer | string): void {
    const bytes = typeof value === 'string' ? Buffer.from(value) : ArrayBuffer.isView(value) ? value : new Uint8Array(value)
    let off = 0
    const view = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    while (off < view.length) off += writeSync(this.fd, view, off, view.length - off)
  }
  override close(): void {}
}

function xorshift(seed: number): () => number {
  let x = seed | 0 || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 4294967296
  }
}

function makeBatch(start: number, rows: number, rand: () => number): RecordBatch {
  const ids = new BigInt64Array(rows)
  const scores = new Float64Array(rows)
  const vectors = new Float32Array(rows * DIM)
  const labelOffsets = new Int32Array(rows + 1)
  const labelBytes = new Uint8Array(rows * 20)
  for (let r = 0; r < rows; r++) {
    ids[r] = BigInt(start + r)
    scores[r] = rand()
    labelOffsets[r + 1] = (r + 1) * 20
    const label = `label-${String(start + r).padStart(14, '0')}`
    for (let c = 0; c < 20; c++) labelBytes[r * 20 + c] = label.charCodeAt(c)
  }
  for (let i = 0; i < vectors.length; i++) vectors[i] = rand() * 2 - 1
  const children = [
    makeData({ type: new Int64(), length: rows, nullCount: 0, data: ids }),
    makeData({ type: new Utf8(), length: rows, nullCount: 0, valueOffsets: labelOffsets, data: labelBytes }),
    makeData({ type: new Float64(), length: rows, nullCount: 0, data: scores }),
    makeData({
      type: SCHEMA.fields[3]!.type,
      length: rows,
      nullCount: 0,
      child: makeData({ type: new Float32(), length: rows * DIM, nullCount: 0, data: vectors }),
    }),
  ]
  return new RecordBatch(SCHEMA, makeData({ type: new Struct(SCHEMA.fields), length: rows, nullCount: 0, children }))
}

/** The cached benchmark file for `rows` (generated on first use; written to a temp name, then renamed). */
export function benchFile(dir: string, rows: number): string {
  const path = join(dir, `bench_${rows}.arrow`)
  if (existsSync(path)) return path
  mkdirSync(dir, { recursive: true })
  const partial = `${path}.partial`
  const fd = openSync(partial, 'w')
  try {
    const writer = new RecordBatchFileWriter()
    writer.reset(new FdSink(fd), SCHEMA)
    const rand = xorshift(rows)
    for (let start = 0; start < rows; start += BATCH_ROWS) writer.write(makeBatch(start, Math.min(BATCH_ROWS, rows - start), rand))
    writer.finish()
  } finally {
    closeSync(fd)
  }
  renameSync(partial, path)
  return path
}

/**
 * The same rows written by polars, chunk by chunk (one record batch per 10k rows): labels become
 * Utf8View, vectors FixedSizeList<Float32>[768], buffers ZSTD-compressed. Written as an Arrow IPC
 * stream, one polars frame at a time (`writeIPCStream` per chunk, the schema message kept once and
 * the end-of-stream marker once), so memory stays at one chunk whatever the size (1M rows = ~3 GB).
 */
export async function polarsBenchFile(dir: string, rows: number, compression: 'zstd' | 'lz4' | 'uncompressed' = 'zstd'): Promise<string> {
  const path = join(dir, `bench_${rows}_polars_${compression}.arrows`)
  if (existsSync(path)) return path
  const source = benchFile(dir, rows)
  /* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports */
  const pl = require('nodejs-polars') as any
  const { openIpc } = await import('../../src/core/arrow/ipc/reader')
  const { fbMessage, flatbuffers } = await import('../../src/core/arrow/ipc/fb')
  const reader = await openIpc(source, 'file')
  const partial = `${path}.partial`
  const fd = openSync(partial, 'w')
  try {
    let first = true
    for await (const batch of reader.batches()) {
      const n = batch.numRows
      const vectors = batch.getChildAt(3)!.data[0]!.children[0]!.values as Float32Array
      const frame = pl.DataFrame([
        pl.Series('id', batch.getChildAt(0)!.data[0]!.values as BigInt64Array),
        pl.Series('label', batch.getChildAt(1)!.toArray() as string[]),
        pl.Series('score', batch.getChildAt(2)!.data[0]!.values as Float64Array),
        pl.Series('vector', Array.from({ length: n }, (_, r) => Array.from(vectors.subarray(r * DIM, (r + 1) * DIM)))).cast(pl.FixedSizeList(pl.Float32, DIM)),
      ])
      // writeIPC, not writeIPCStream: polars writes Utf8View only in the file format (its stream writer uses LargeUtf8).
      const bytes = frame.writeIPC({ compression }) as Buffer
      for (const message of fileMessages(bytes, fbMessage, flatbuffers)) {
        if (first || message.headerType !== 1) writeSync(fd, message.bytes)
      }
      first = false
    }
    writeSync(fd, Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]))
  } finally {
    closeSync(fd)
    await reader.close()
  }
  /* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-require-imports */
  renameSync(partial, path)
  return path
}

/**
 * The messages of an IPC file (magic, then the stream format, then the footer), each with its header
 * type (1 = schema), up to the end-of-stream marker or the footer.
 */
function* fileMessages(bytes: Buffer, fbMessage: typeof import('../../src/core/arrow/ipc/fb').fbMessage, flatbuffers: typeof import('../../src/core/arrow/ipc/fb').flatbuffers): Generator<{ headerType: number; bytes: Buffer }> {
  const footerAt = bytes.length - 10 - bytes.readInt32LE(bytes.length - 10)
  let at = 8
  while (at < footerAt && bytes.readUInt32LE(at) === 0xffffffff) {
    const metaLength = bytes.readInt32LE(at + 4)
    if (metaLength === 0) return
    const meta = bytes.subarray(at + 8, at + 8 + metaLength)
    const message = fbMessage.Message.getRootAsMessage(new flatbuffers.ByteBuffer(new Uint8Array(meta.buffer, meta.byteOffset, meta.byteLength)))
    const end = at + 8 + metaLength + Number(message.bodyLength())
    yield { headerType: message.headerType() as number, bytes: bytes.subarray(at, end) }
    at = end
  }
}

// ---------------------------------------------------------------- the imports (child side)

/** fsync every file and folder under `root` (what the import wrote), children before parents. */
async function fsyncTree(root: string): Promise<void> {
  const { readdir } = await import('node:fs/promises')
  const entries = await readdir(root, { withFileTypes: true, recursive: true })
  const sync = async (path: string) => {
    const handle = await open(path, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  }
  for (const e of entries) if (e.isFile()) await sync(join(e.parentPath, e.name))
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => join(e.parentPath, e.name))
  for (const d of dirs.sort((a, b) => b.length - a.length)) await sync(d)
  await sync(root)
}

async function runBare(file: string, root: string): Promise<number> {
  const lancedb = await import('@lancedb/lancedb')
  const db = await lancedb.connectNamespace('dir', { root })
  const handle = await open(file, 'r')
  const reader = (await RecordBatchReader.from(handle)) as unknown as AsyncRecordBatchFileReader
  await reader.open()
  let table: Awaited<ReturnType<typeof db.createTable>> | null = null
  let inflight: Promise<unknown> | null = null
  let rows = 0
  for (let i = 0; i < reader.numRecordBatches; i++) {
    const batch = (await reader.readRecordBatch(i))!
    if (inflight) await inflight
    const chunk = new Table(batch.schema, [batch])
    rows += batch.numRows
    if (!table) {
      table = await db.createTable('bench', chunk)
      inflight = null
    } else {
      inflight = table.add(chunk)
    }
  }
  if (inflight) await inflight
  await handle.close()
  return rows
}

/** Lance versions the imported table has (one per commit): what the table's timeline shows. */
async function versionCount(root: string): Promise<number> {
  const lancedb = await import('@lancedb/lancedb')
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable('bench')
  return (await table.listVersions()).length
}


async function child(variant: string, file: string, root: string): Promise<void> {
  // Load (and, under tsx, compile) every module first: the clock measures the import, not start-up.
  await import('@lancedb/lancedb')
  await import('../../src/core/namespace/connect')
  await import('../../src/core/namespace/dir')
  await import('../../src/core/import/jobs')
  // The reader's script (bundled from the sources when run by tsx; built beside main in the app) made before the clock.
  await (await import('../../src/core/import/reader/entry')).defaultReaderEntry()
  // `inline`: the file read in this process, as before readers had processes of their own (the boundary's cost).
  if (variant === 'inline') process.env.LCB_IMPORT_READER = 'inline'
  const warm = variant === 'ours' ? await warmReaders(file) : undefined
  const children = watchChildren()
  const started = process.hrtime.bigint()
  const cpuAtStart = process.cpuUsage()
  const rows = variant === 'bare' ? await runBare(file, root) : await runOurs(file, root, warm)
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  const reader = children.stop()
  const synced = process.hrtime.bigint()
  await fsyncTree(root)
  const fsyncMs = Number(process.hrtime.bigint() - synced) / 1e6
  const peak = peakRssMiB()
  const cpu = process.cpuUsage(cpuAtStart)
  printResult({ rows, ms, fsyncMs, peakRssMiB: peak, readerPeakRssMiB: reader.peakRssMiB, versions: await versionCount(root), cpuMs: (cpu.user + cpu.system) / 1000 + reader.cpuMs } satisfies ChildRun)
}

// ---------------------------------------------------------------- orchestration (parent side)

/** The physical limit: the same bytes copied to the same disk, flushed (`conv=fsync`). */
function runDd(file: string, root: string): ChildRun {
  mkdirSync(root, { recursive: true })
  const started = process.hrtime.bigint()
  execFileSync('dd', [`if=${file}`, `of=${join(root, 'copy')}`, 'bs=4M', 'conv=fsync'], { stdio: 'ignore' })
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  return { rows: 0, ms, fsyncMs: 0, peakRssMiB: 0, readerPeakRssMiB: 0, versions: 0, cpuMs: 0 }
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
}


export async function runImportBench(
  options: { sizes?: number[]; reps?: number; dir?: string; log?: (line: string) => void; write?: boolean } = {},
): Promise<ImportBenchRow[]> {
  const log = options.log ?? ((line: string) => console.log(line))
  const dir = resolve(ROOT, options.dir ?? process.env.BENCH_DIR ?? '.tmp/bench')
  const sizes = options.sizes ?? (process.env.BENCH_ROWS ? process.env.BENCH_ROWS.split(',').map(Number) : [100_000, 1_000_000])
  const reps = options.reps ?? Number(process.env.BENCH_REPS ?? 1)
  const results: ImportBenchRow[] = []
  loads.before = loadAverage()
  log(`import: load average before ${loads.before}`)
  for (const rows of sizes) {
    const t0 = Date.now()
    const file = benchFile(dir, rows)
    const polarsFile = await polarsBenchFile(dir, rows)
    const bytes = statSync(file).size
    log(`import: ${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(0)} MB; polars/ZSTD ${(statSync(polarsFile).size / 1e6).toFixed(0)} MB (${Date.now() - t0 > 1000 ? 'generated' : 'cached'})`)
    for (let rep = 0; rep < reps; rep++) {
      // BENCH_IMPORT_INLINE=1 adds `inline`: ours with the file read in the importing process (the reader process's cost).
      const variants: Variant[] = process.env.BENCH_IMPORT_INLINE === '1' ? ['ours', 'inline', 'bare', 'polars', 'dd'] : ['ours', 'bare', 'polars', 'dd']
      const order = rep % 2 === 0 ? variants : [...variants].reverse()
      for (const variant of order) {
        const root = join(dir, `db_${variant}_${rows}`)
        const source = variant === 'polars' ? polarsFile : file
        rmSync(root, { recursive: true, force: true })
        settle(source)
        try {
          const r = variant === 'dd' ? runDd(source, root) : await runMeasuredChild<ChildRun>(__filename, ['--child', variant, source, root], variant)
          if (variant !== 'dd' && r.rows !== rows) throw new Error(`${variant} imported ${r.rows} rows of ${rows}`)
          const row: ImportBenchRow = {
            rows,
            bytes: statSync(source).size,
            variant,
            rep,
            ms: Math.round(r.ms),
            fsyncMs: Math.round(r.fsyncMs),
            rowsPerSecond: Math.round((rows / r.ms) * 1000),
            mbPerSecond: Math.round(bytes / 1e6 / (r.ms / 1000)),
            peakRssMiB: r.peakRssMiB,
            readerPeakRssMiB: r.readerPeakRssMiB,
            versions: r.versions,
            cpuMs: Math.round(r.cpuMs),
          }
          results.push(row)
          log(`  ${variant} rep ${rep}: ${(row.ms / 1000).toFixed(2)} s${variant === 'dd' ? ' (dd, with fsync)' : ` + fsync ${(row.fsyncMs / 1000).toFixed(2)} s, ${row.rowsPerSecond.toLocaleString('en')} rows/s, peak RSS ${row.peakRssMiB} MiB${row.readerPeakRssMiB ? ` (reader ${row.readerPeakRssMiB} MiB)` : ''}, ${row.versions} versions, CPU ${(row.cpuMs / 1000).toFixed(2)} s`}, ${row.mbPerSecond} MB/s`)
        } finally {
          rmSync(root, { recursive: true, force: true })
        }
      }
    }
  }
  loads.after = loadAverage()
  log(`import: load average after ${loads.after}`)
  if (options.write !== false) writeReport(results, reps)
  return results
}

const loads = { before: '', after: '' }

/**
 * BENCH_IMPORT_PARTS (default `arrow,files`): `arrow` = the 768-d Arrow file bench above; `files` = Parquet and
 * CSV files against polars → Arrow → bare lancedb (bench/import-files.ts).
 */
export const section: Section = {
  title: 'import: Arrow file with 768-d vectors (ours vs bare @lancedb/lancedb, a polars/ZSTD file, dd); Parquet and CSV files (ours vs polars → Arrow → bare lancedb)',
  async run(ctx) {
    const parts = (process.env.BENCH_IMPORT_PARTS ?? 'arrow,files').split(',')
    const arrow = parts.includes('arrow') ? report(await runImportBench({ dir: ctx.dir, log: ctx.log, write: false })) : { notes: [], tables: [] }
    if (!parts.includes('files')) return arrow
    const { runFileBench, fileBenchTables } = await import('./import-files')
    const files = await runFileBench(ctx.dir, Number(process.env.BENCH_REPS ?? 1), ctx.log)
    return {
      notes: [
        ...arrow.notes,
        'Files: a flights-like Parquet file (BENCH_PARQUET_ROWS, default 3M rows) and CSV (BENCH_CSV_MB, default 1000 MB) written by DuckDB; "native" = polars readParquet/readCSV → its Arrow IPC bytes → bare lancedb\'s native createTable (what a user would script, on the fastest path lancedb has; DuckDB\'s node client hands out no Arrow).',
      ],
      tables: [...arrow.tables, ...fileBenchTables(files.rows, files.before, files.after)],
    }
  },
}

function report(results: ImportBenchRow[]): Report {
  const rows: (string | number)[][] = []
  for (const n of [...new Set(results.map((r) => r.rows))]) {
    const { ours, bare, polars, ratio, polarsRatio, diskRatio, inlineRatio } = summary(results, n)
    if (!ours.length || !bare.length) continue
    rows.push([
      n.toLocaleString('en'),
      (ours[0]!.bytes / 1e6).toFixed(0),
      (median(ours.map((r) => r.ms)) / 1000).toFixed(2),
      (median(bare.map((r) => r.ms)) / 1000).toFixed(2),
      Math.round(median(ours.map((r) => r.rowsPerSecond))).toLocaleString('en'),
      Math.round(median(bare.map((r) => r.rowsPerSecond))).toLocaleString('en'),
      `${ratio.toFixed(2)}×`,
      Math.max(...ours.map((r) => r.peakRssMiB)),
      Math.max(...ours.map((r) => r.readerPeakRssMiB)),
      Math.max(...bare.map((r) => r.peakRssMiB)),
      polars.length ? `${polarsRatio.toFixed(2)}×` : '–',
      polars.length ? Math.max(...polars.map((r) => r.peakRssMiB)) : '–',
      `${diskRatio.toFixed(2)}×`,
      Number.isNaN(inlineRatio) ? '–' : `${inlineRatio.toFixed(2)}×`,
    ])
  }
  return {
    notes: [
      `${Math.max(0, ...results.map((r) => r.rep)) + 1} rep(s) per variant (BENCH_REPS), alternating order (ABBA); each import in its own child process, peak RSS = VmHWM.`,
      'File: Arrow IPC file, 10k-row batches, `{id int64, label utf8, score float64, vector FixedSizeList<Float32>[768]}`, random floats (BENCH_ROWS, BENCH_DIR).',
      '"bare" = @lancedb/lancedb alone: file reader, createTable(first batch), add(batch) with one add in flight (perf-baselines §3 best variant).',
      '"ours" reads the file in a reader process of its own (src/core/import/reader) and writes in the importing process; its CPU counts both, its peak RSS is given for each. "inline" (BENCH_IMPORT_INLINE=1) = ours with the file read in the importing process, as before reader processes.',
      '"polars" = our pipeline on the same rows written by polars (Utf8View labels, ZSTD-compressed buffers; an IPC stream written one 10k-row frame at a time); "dd" = `dd bs=4M conv=fsync` of the plain file to the same disk.',
      'Every import is followed by an fsync of the table directory, timed apart; "(ours + fsync) ÷ dd" compares like with like.',
      'Targets: throughput ours/bare ≥ 0.9 and polars/ours ≥ 0.9; peak RSS < 700 MB for the 3 GB file.',
    ],
    tables: [
      {
        title: 'Import (median per variant)',
        columns: ['rows', 'file MB', 'ours s', 'bare s', 'ours rows/s', 'bare rows/s', 'throughput ours/bare', 'ours peak RSS MiB', 'ours reader process peak RSS MiB', 'bare peak RSS MiB', 'polars/ZSTD throughput ÷ ours', 'polars peak RSS MiB', '(ours + fsync) ÷ dd', 'throughput ours ÷ read in-process (BENCH_IMPORT_INLINE)'],
        rows,
      },
      {
        title: `Every rep (load average before ${loads.before}, after ${loads.after})`,
        columns: ['rows', 'variant', 'rep', 'import s', 'fsync s', 'CPU s (with the reader)', 'rows/s', 'MB/s', 'peak RSS MiB (+ reader process)', 'table versions', '(import + fsync) ÷ dd'],
        rows: results.map((r) => [r.rows.toLocaleString('en'), r.variant, r.rep, (r.ms / 1000).toFixed(2), (r.fsyncMs / 1000).toFixed(2), r.cpuMs ? (r.cpuMs / 1000).toFixed(2) : '–', r.variant === 'dd' ? '–' : r.rowsPerSecond.toLocaleString('en'), r.mbPerSecond, rssOf(r), r.versions || '–', diskOf(results, r)]),
      },
    ],
  }
}

/**
 * Same start for every run: flush the previous run's dirty pages (3 GB written by the last import
 * would otherwise be written back during the next one) and warm the source file (perf-baselines §3
 * measured warm sources).
 */
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

function summary(results: ImportBenchRow[], n: number) {
  const of = (v: Variant) => results.filter((r) => r.rows === n && r.variant === v)
  const ours = of('ours')
  const bare = of('bare')
  const polars = of('polars')
  const dd = of('dd')
  const inline = of('inline')
  const sameRep = (xs: ImportBenchRow[], rep: number) => xs.find((x) => x.rep === rep)
  const ratio = ours.length && bare.length ? median(ours.map((o) => sameRep(bare, o.rep)!.ms / o.ms)) : NaN
  // Throughput in rows/s: the polars file holds the same rows.
  const polarsRatio = polars.length ? median(polars.map((p) => sameRep(ours, p.rep)!.ms / p.ms)) : NaN
  const diskRatio = dd.length ? median(ours.map((o) => (o.ms + o.fsyncMs) / sameRep(dd, o.rep)!.ms)) : NaN
  // The reader process's cost: throughput ours ÷ the same pipeline reading in the importing process.
  const inlineRatio = inline.length ? median(inline.map((i) => i.ms / sameRep(ours, i.rep)!.ms)) : NaN
  return { ours, bare, polars, dd, ratio, polarsRatio, diskRatio, inlineRatio }
}

/** The importing process's peak RSS, and its reader process's where it had one. */
function rssOf(r: ImportBenchRow): string {
  if (!r.peakRssMiB) return '–'
  return r.readerPeakRssMiB ? `${r.peakRssMiB} + ${r.readerPeakRssMiB}` : String(r.peakRssMiB)
}

/** (import + fsync) ÷ the same rep's dd, for one import row. */
function diskOf(results: ImportBenchRow[], r: ImportBenchRow): string {
  const dd = results.find((x) => x.rows === r.rows && x.rep === r.rep && x.variant === 'dd')
  return r.variant === 'dd' || !dd ? '–' : `${((r.ms + r.fsyncMs) / dd.ms).toFixed(2)}×`
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

function writeReport(results: ImportBenchRow[], reps: number): void {
  const lines = [
    '# Import benchmark',
    '',
    `Run ${new Date().toISOString()} on ${process.platform}, Node ${process.version}; ${reps} rep(s) per variant, alternating order;`,
    'each import in its own child process (peak RSS = VmHWM). File: Arrow IPC file, 10k-row batches,',
    '`{id int64, label utf8, score float64, vector FixedSizeList<Float32>[768]}`, random floats.',
    '"bare" = @lancedb/lancedb alone: file reader, createTable(first batch), add(batch) with one add in flight.',
    '',
    '"polars" = our pipeline on the same rows written by polars (Utf8View labels, ZSTD buffers); "dd" = `dd bs=4M conv=fsync` of the source.',
    'Every import is followed by an fsync of the table directory, timed apart ("fsync s").',
    `Load average before: ${loads.before}; after: ${loads.after}.`,
    '',
    '| rows | file MB | ours s | bare s | ours rows/s | bare rows/s | throughput ours/bare (target ≥ 0.9) | ours peak RSS MiB | ours reader process peak RSS MiB | bare peak RSS MiB | polars/ZSTD throughput ÷ ours (target ≥ 0.9) | polars peak RSS MiB | (ours + fsync) ÷ dd | throughput ours ÷ read in-process |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ]
  for (const rows of [...new Set(results.map((r) => r.rows))]) {
    const { ours, bare, polars, ratio, polarsRatio, diskRatio, inlineRatio } = summary(results, rows)
    if (!ours.length || !bare.length) continue
    lines.push(
      `| ${rows.toLocaleString('en')} | ${(ours[0]!.bytes / 1e6).toFixed(0)} | ${(median(ours.map((r) => r.ms)) / 1000).toFixed(2)} | ${(median(bare.map((r) => r.ms)) / 1000).toFixed(2)} | ${median(ours.map((r) => r.rowsPerSecond)).toLocaleString('en')} | ${median(bare.map((r) => r.rowsPerSecond)).toLocaleString('en')} | **${ratio.toFixed(2)}×** | ${Math.max(...ours.map((r) => r.peakRssMiB))} | ${Math.max(...ours.map((r) => r.readerPeakRssMiB))} | ${Math.max(...bare.map((r) => r.peakRssMiB))} | **${polarsRatio.toFixed(2)}×** | ${polars.length ? Math.max(...polars.map((r) => r.peakRssMiB)) : '–'} | ${diskRatio.toFixed(2)}× | ${Number.isNaN(inlineRatio) ? '–' : `${inlineRatio.toFixed(2)}×`} |`,
    )
  }
  lines.push('', '| rows | variant | rep | import s | fsync s | CPU s (with the reader) | rows/s | MB/s | peak RSS MiB (+ reader process) | table versions | (import + fsync) ÷ dd |', '|---|---|---|---|---|---|---|---|---|---|---|')
  for (const r of results) {
    lines.push(`| ${r.rows.toLocaleString('en')} | ${r.variant} | ${r.rep} | ${(r.ms / 1000).toFixed(2)} | ${(r.fsyncMs / 1000).toFixed(2)} | ${r.cpuMs ? (r.cpuMs / 1000).toFixed(2) : '–'} | ${r.variant === 'dd' ? '–' : r.rowsPerSecond.toLocaleString('en')} | ${r.mbPerSecond} | ${rssOf(r)} | ${r.versions || '–'} | ${diskOf(results, r)} |`)
  }
  mkdirSync(join(ROOT, 'tests', 'bench', 'results'), { recursive: true })
  writeFileSync(join(ROOT, 'tests', 'bench', 'results', 'import.md'), lines.join('\n') + '\n')
}

if (require.main === module) {
  const [flag, variant, file, root] = process.argv.slice(2)
  const main = flag === '--child' ? child(variant!, file!, root!) : runImportBench().then(() => undefined)
  main.catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
