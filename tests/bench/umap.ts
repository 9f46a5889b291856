/**
 * UMAP map benchmark (a section of `npm run bench`): BENCH_MAP_ROWS rows (1,000,000) × BENCH_MAP_DIM-d vectors
 * (768), the same generated table as the `map` section. `umapColumn` with a BENCH_UMAP_SAMPLE-row sample (5,000,
 * the panel's default) — the even sample, a 16-d PCA, UMAP fitted in a worker thread, one streaming scan placing
 * every row by its nearest sample rows — timed beside a bare @lancedb/lancedb scan of the vector column (ABBA
 * reps, no warm-up: the fit dominates and does not warm). No target is set for UMAP; the ratio says what it costs
 * over the scan, the fit is the same whatever the table's size.
 */
import type { MapProgress } from '../../src/contract'
import { umapColumn } from '../../src/core/map'
import { bareVectorScan, ensureRowsCatalog, openRowsTable } from './data'
import { jobInOwnProcess } from './map'
import { compare, loadAverages, count, envInt, ms, ratio, type BenchContext, type Report, type Section } from './lib'

async function run(context: BenchContext): Promise<Report> {
  const rows = envInt('BENCH_MAP_ROWS', 1_000_000)
  const dim = envInt('BENCH_MAP_DIM', 768)
  const reps = envInt('BENCH_MAP_REPS', 3)
  const sample = envInt('BENCH_UMAP_SAMPLE', 5000)
  const root = await ensureRowsCatalog(context, { rows, dim })
  const { client, table, version, ref, close } = await openRowsTable(root)
  const loadBefore = loadAverages()
  context.log(`umap: UMAP map (${count(sample)}-row sample) vs a bare scan of the vector column`)
  let placed = 0
  // When each step first showed in the job's progress: the split of the last rep's time.
  let steps: { name: string; at: number }[] = []
  const result = await compare(
    async () => {
      const t0 = performance.now()
      steps = []
      const onProgress = ({ phase }: MapProgress) => {
        if (phase && steps.at(-1)?.name !== phase.name) steps.push({ name: phase.name, at: performance.now() - t0 })
      }
      placed = (await umapColumn(client, ref, version, 'vector', { sample, onProgress })).summary.rows
      steps.push({ name: 'end', at: performance.now() - t0 })
    },
    () => bareVectorScan(table, rows),
    { reps, warmup: 0 },
  )
  const rssMb = process.resourceUsage().maxRSS / 1024
  await close()
  context.log('umap: the job alone in its own process (peak RSS)')
  const job = await jobInOwnProcess(root, sample)
  return {
    notes: [
      `${count(rows)} rows × ${dim}-d vectors (${count(placed)} placed), UMAP sample ${count(sample)}; ${reps} reps (ABBA), medians; load average ${loadBefore} before, ${loadAverages()} after, on this machine's shared cores.`,
      `Reps (ours / bare): ${result.reps.map((r) => `${ms(r.ours)} / ${ms(r.bare)} ms = ${ratio(r.ratio)}`).join('; ')}.`,
      `Split of the last rep (each step's time, s; the steps as the job reports them): ${steps
        .slice(0, -1)
        .map((step, i) => `${step.name} ${((steps[i + 1]!.at - step.at) / 1000).toFixed(1)}`)
        .join(', ')}.`,
      `The job alone in its own process: ${ms(job.ms)} ms, peak RSS ${job.maxRssMiB.toFixed(0)} MiB (its worker thread's included); the bench process (the job, the bare scans' read-ahead and the bench's state): ${rssMb.toFixed(0)} MiB.`,
    ],
    tables: [
      {
        title: 'UMAP map',
        columns: ['measure', 'ours', 'bare', 'ratio / value', 'verdict'],
        rows: [
          [`UMAP map (${count(sample)}-row sample, every row placed) vs a bare scan of the vector column (ms)`, ms(result.ours), ms(result.bare), ratio(result.ratio), '— (no target)'],
          ['peak RSS of the UMAP job in its own process (MiB)', job.maxRssMiB.toFixed(0), '—', `${job.maxRssMiB.toFixed(0)} MiB`, job.maxRssMiB < 1000 ? 'ok (< 1 GB)' : '**over** (target < 1 GB)'],
        ],
      },
    ],
  }
}

export const section: Section = { title: 'UMAP map', run }
