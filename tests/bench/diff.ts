/**
 * Version diff benchmark (a section of `npm run bench`): "what changed" between two versions of a 1M-row table
 * with 1% of its rows changed, through the core's diff (src/core/diff), against a bare @lancedb/lancedb scan of
 * both versions' key column in the same run (ABBA reps). Target: ≤ 2× the bare key scan; peak RSS < 1 GB.
 *
 * A second, stricter baseline in the same run: the bare scan read in 64Ki-row batches, as the diff reads its
 * keys and row addresses (Lance's default 1,024-row batches each cross to JS; most of a narrow scan's time).
 *
 * The table (cached in BENCH_DIR/diff): BENCH_DIFF_ROWS rows (1,000,000) of an int64 id, a 20-character label, a
 * float64 and an 8-d vector, written in 10,000-row chunks; then one update of every 100th row's score.
 */
import { existsSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { diffVersions } from '../../src/core/diff'
import { chunk } from './data'
import { seededRandom } from '../../src/core/arrow'
import { compare, count, envInt, ms, ratio, verdict, type BenchContext, type Report, type Section } from './lib'

const CHUNK = 10_000
const NAME = 'changes'

async function ensureTable(context: BenchContext, rows: number): Promise<string> {
  const root = join(context.dir, `diff-${rows}`)
  if (existsSync(`${root}.ready`)) return root
  await rm(root, { recursive: true, force: true })
  context.log(`diff: writing ${count(rows)} rows, then changing 1% (once)`)
  const client = await DirNamespaceClient.open(root, { create: true })
  const id = { namespace: [], name: NAME }
  const random = seededRandom(7)
  for (let first = 0; first < rows; first += CHUNK) {
    const data = chunk(first, Math.min(CHUNK, rows - first), 8, random)
    if (first === 0) await client.createTable(id, data)
    else await client.appendRows(id, data)
  }
  await client.close()
  // Compact to one version of few fragments, as a table that has lived a while, then change 1% of the rows.
  const db = await lancedb.connectNamespace('dir', { root })
  const table = await db.openTable(NAME, [])
  await table.optimize()
  await table.update({ where: 'id % 100 = 7', valuesSql: { score: 'score + 1' } })
  table.close()
  db.close()
  await writeFile(`${root}.ready`, new Date().toISOString())
  return root
}

async function run(context: BenchContext): Promise<Report> {
  const rows = envInt('BENCH_DIFF_ROWS', 1_000_000)
  const reps = envInt('BENCH_DIFF_REPS', 5)
  const root = await ensureTable(context, rows)
  const client = await DirNamespaceClient.open(root)
  const id = { namespace: [], name: NAME }
  const versions = (await client.listVersions(id)).map((v) => v.version)
  const to = Math.max(...versions)
  const from = to - 1
  const db = await lancedb.connectNamespace('dir', { root })
  const table = { connectionId: 'bench', namespace: [], name: NAME }

  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20)
  let last: Awaited<ReturnType<typeof diffVersions>> | null = null
  const ours = async () => {
    last = await diffVersions(client, table, from, to, 'id')
  }
  const bare = async () => {
    let n = 0
    for (const version of [from, to]) {
      const t = await db.openTable(NAME, [], { version })
      for await (const batch of t.query().select(['id'])) n += batch.numRows
      t.close()
    }
    return n
  }
  // The same bare scan, each version read in 64Ki-row batches (how the diff reads its keys and addresses).
  const bareWide = async () => {
    let n = 0
    for (const version of [from, to]) {
      const t = await db.openTable(NAME, [], { version })
      n += (await t.query().select(['id']).toArrow({ maxBatchLength: 65_536 })).numRows
      t.close()
    }
    return n
  }
  const load = loadavg().map((l) => l.toFixed(2)).join(' ')
  context.log(`diff: v${from} → v${to}, ${reps} reps`)
  const r = await compare(ours, bare, { reps, warmup: 1 })
  const wide = await compare(ours, bareWide, { reps, warmup: 1 })
  clearInterval(sampler)
  const loadAfter = loadavg().map((l) => l.toFixed(2)).join(' ')
  await client.close()
  db.close()
  const result = last as Awaited<ReturnType<typeof diffVersions>> | null
  return {
    notes: [
      `${count(rows)} rows (int64 id, 20-char label, float64, 8-d vector), v${from} → v${to}: one update of every 100th row's score. ${reps} reps (ABBA, 1 warm-up), medians of the per-rep ratios; then the same against the bare scan in 64Ki-row batches.`,
      `Found: ${count(result?.added ?? 0)} added, ${count(result?.deleted ?? 0)} deleted, ${count(result?.changed ?? 0)} changed; read every column: ${result?.readAllColumns ? 'yes' : 'no'}.`,
      `Load average before: ${load}; after: ${loadAfter} (2 cores shared with other work).`,
      `Peak RSS of the bench process: ${(peakRss / 2 ** 20).toFixed(0)} MB (target < 1 GB).`,
    ],
    tables: [
      {
        title: 'Version diff vs a bare scan of both versions’ key column',
        columns: ['operation', 'ours (ms)', 'bare (ms)', 'ratio', 'verdict'],
        rows: [
          ['diff by id, 1% changed', ms(r.ours), ms(r.bare), ratio(r.ratio), verdict(r.ratio, 2)],
          ['the same, bare read in 64Ki-row batches', ms(wide.ours), ms(wide.bare), ratio(wide.ratio), verdict(wide.ratio, 2)],
        ],
      },
      {
        title: 'Every rep (ABBA: odd reps ran the bare scan first)',
        columns: ['rep', 'ours (ms)', 'bare (ms)', 'ratio', 'ours (ms)', 'bare, 64Ki batches (ms)', 'ratio'],
        rows: r.reps.map((x, i) => [i + 1, ms(x.ours), ms(x.bare), ratio(x.ratio), ms(wide.reps[i]!.ours), ms(wide.reps[i]!.bare), ratio(wide.reps[i]!.ratio)]),
      },
    ],
  }
}

export const section: Section = { title: 'Version diff', run }
