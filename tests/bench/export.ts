/**
 * Export benchmark (`npm run bench -- export`).
 *
 * The cached `rows` table of BENCH_ROWS rows (default 1,000,000) `{id int64, label utf8, score float64,
 * vector FixedSizeList<Float32>[BENCH_DIM = 768]}` (~3.1 GB) is exported to Arrow IPC (file) and to Parquet,
 * each variant in its own child process (peak RSS = VmHWM), alternating order (ABBA when BENCH_REPS ≥ 2):
 *   ours — the whole path: CatalogService `export/start` → ExportJobs → scan of the view → the format's writer
 *          → temporary file → rename;
 *   bare — @lancedb/lancedb alone: `table.query()` streamed batch by batch (`execute()`, as `toArrow()` reads)
 *          into the same writer and file sink.
 * Targets: throughput ours/bare ≥ 0.9; our peak RSS < 700 MB. Knobs: BENCH_ROWS, BENCH_DIM, BENCH_REPS (1),
 * BENCH_EXPORT_FORMATS (`arrow,parquet`).
 */
import { execFileSync } from 'node:child_process'
import { rmSync, statSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { ensureRowsCatalog, BENCH_TABLE } from './data'
import { count, envInt, peakRssMiB, printResult, runMeasuredChild, loadAverages, type Section } from './lib'

const FORMATS = ['arrow', 'parquet'] as const
type Format = (typeof FORMATS)[number]


async function runOurs(root: string, format: Format, path: string): Promise<number> {
  const { CatalogService, MemoryRecentsStore } = await import('../../src/core/service')
  const service = new CatalogService({ host: 'harness', version: 'bench', recents: new MemoryRecentsStore() })
  const opened = await service.dispatch('connections/openDirectory', { path: root })
  if (!opened.ok) throw new Error(opened.error.message)
  const started = await service.dispatch('export/start', { connectionId: (opened.value as { id: string }).id, namespace: [...BENCH_TABLE.namespace], name: BENCH_TABLE.name, view: {}, format, path })
  if (!started.ok) throw new Error(started.error.message)
  const done = await service.exports.jobs.wait((started.value as { id: string }).id)
  await service.closeAll()
  if (done.state !== 'done') throw new Error(`export ${done.state}: ${done.error?.message}`)
  return done.result!.rows
}

async function runBare(root: string, format: Format, path: string): Promise<number> {
  const lancedb = await import('@lancedb/lancedb')
  const { exportBatches } = await import('../../src/core/export/run')
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable(BENCH_TABLE.name, [...BENCH_TABLE.namespace])
  const schema = await table.schema()
  // `execute()` is what `toArrow()` iterates; streamed here so the whole table is never in memory.
  const batches = (table.query() as unknown as { execute(): AsyncIterable<import('apache-arrow').RecordBatch> }).execute()
  const result = await exportBatches(batches, format, path, { schema })
  table.close()
  return result.rows
}

async function child(variant: string, root: string, format: Format, path: string): Promise<void> {
  // Load every module first: the clock measures the export, not start-up (or tsx compiling).
  await import('@lancedb/lancedb')
  await import('../../src/core/service')
  await import('../../src/core/export/run')
  await import('parquet-wasm')
  const started = process.hrtime.bigint()
  const rows = variant === 'ours' ? await runOurs(root, format, path) : await runBare(root, format, path)
  const ms = Number(process.hrtime.bigint() - started) / 1e6
  printResult({ rows, ms, bytes: statSync(path).size, peakRssMiB: peakRssMiB() })
}

interface Run {
  rows: number
  ms: number
  bytes: number
  peakRssMiB: number
}


function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

export const section: Section = {
  title: 'export: 768-d rows to Arrow IPC and Parquet, ours vs bare @lancedb/lancedb query streamed into the same writer',
  async run(ctx) {
    const rows = envInt('BENCH_ROWS', 1_000_000)
    const dim = envInt('BENCH_DIM', 768)
    const reps = envInt('BENCH_REPS', 1)
    const formats = (process.env.BENCH_EXPORT_FORMATS ?? FORMATS.join(',')).split(',').map((f) => f.trim())
    const unknown = formats.filter((f) => !(FORMATS as readonly string[]).includes(f))
    if (unknown.length > 0) throw new Error(`BENCH_EXPORT_FORMATS: unknown format(s) ${unknown.join(', ')} (known: ${FORMATS.join(', ')})`)
    const root = await ensureRowsCatalog(ctx, { rows, dim })
    const loadBefore = loadAverages()
    const out = join(ctx.dir, 'export-out')
    const table: (string | number)[][] = []
    for (const format of FORMATS.filter((f) => formats.includes(f))) {
      const results: Record<'ours' | 'bare', Run[]> = { ours: [], bare: [] }
      const ratios: number[] = []
      for (let rep = 0; rep < reps; rep++) {
        const order: ('ours' | 'bare')[] = rep % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours']
        const times: Partial<Record<'ours' | 'bare', number>> = {}
        for (const variant of order) {
          rmSync(out, { recursive: true, force: true })
          execFileSync('mkdir', ['-p', out])
          execFileSync('sync')
          const r = await runMeasuredChild<Run>(__filename, ['--child', variant, root, format, join(out, `rows.${format}`)], variant)
          if (r.rows !== rows) throw new Error(`${variant} exported ${r.rows} rows of ${rows}`)
          results[variant].push(r)
          times[variant] = r.ms
          ctx.log(`${format} ${variant} rep ${rep}: ${(r.ms / 1000).toFixed(2)} s, ${count(Math.round((rows / r.ms) * 1000))} rows/s, ${(r.bytes / 1e6).toFixed(0)} MB, peak RSS ${r.peakRssMiB} MiB`)
        }
        ratios.push(times.bare! / times.ours!)
      }
      rmSync(out, { recursive: true, force: true })
      const ours = results.ours
      const bare = results.bare
      table.push([
        format === 'arrow' ? 'Arrow IPC (file)' : 'Parquet (Snappy)',
        (ours[0]!.bytes / 1e6).toFixed(0),
        (median(ours.map((r) => r.ms)) / 1000).toFixed(2),
        (median(bare.map((r) => r.ms)) / 1000).toFixed(2),
        count(Math.round((rows / median(ours.map((r) => r.ms))) * 1000)),
        count(Math.round((rows / median(bare.map((r) => r.ms))) * 1000)),
        `**${median(ratios).toFixed(2)}×**`,
        ratios.map((r) => `${r.toFixed(2)}×`).join(', '),
        Math.max(...ours.map((r) => r.peakRssMiB)),
        Math.max(...bare.map((r) => r.peakRssMiB)),
      ])
    }
    return {
      notes: [
        `${count(rows)} rows × ${dim}-d vectors (BENCH_ROWS, BENCH_DIM); ${reps} rep(s) per variant (BENCH_REPS), alternating order; each export in its own child process (peak RSS = VmHWM).`,
        'ours = `export/start` through CatalogService (scan of the view → writer → temporary file → rename); bare = lancedb `table.query().execute()` batches into the same writer.',
        'Targets: throughput ours/bare ≥ 0.9; our peak RSS < 700 MB.',
        `load average (1 / 5 / 15 min) on ${cpus().length} cores before: ${loadBefore}; after: ${loadAverages()}`,
      ],
      tables: [
        {
          title: 'Export (median per variant)',
          columns: ['format', 'file MB', 'ours s', 'bare s', 'ours rows/s', 'bare rows/s', 'throughput ours/bare', 'per rep (in run order)', 'ours peak RSS MiB', 'bare peak RSS MiB'],
          rows: table,
        },
      ],
    }
  },
}

if (require.main === module && process.argv[2] === '--child') {
  const [, variant, root, format, path] = process.argv.slice(2)
  child(variant!, root!, format as Format, path!).catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
