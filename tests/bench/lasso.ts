/**
 * The map's lasso of any size (a section of `npm run bench`): a row set of BENCH_LASSO_SET rows (50,000, spread over
 * the table as a map cluster's rows are) on BENCH_LASSO_ROWS rows (1,000,000) × BENCH_LASSO_DIM-d vectors (768, the
 * map section's data). Ours: the set made (`rowsets/create`'s work) and read through a view (src/core/rowset,
 * src/core/namespace/dir/queries.ts); bare: @lancedb/lancedb reading the same rows the most direct way, in the same
 * run (ABBA reps).
 */
import { seededRandom } from '../../src/core/arrow'
import { RowSetModule } from '../../src/core/rowset'
import { BENCH_TABLE, ensureRowsCatalog, openRowsTable } from './data'
import { compare, loadAverages, count, envInt, median, ms, ratio, time, type BenchContext, type Report, type Section } from './lib'

const PAGE = 100
async function run(context: BenchContext): Promise<Report> {
  const rows = envInt('BENCH_LASSO_ROWS', 1_000_000)
  const dim = envInt('BENCH_LASSO_DIM', 768)
  const size = Math.min(rows, envInt('BENCH_LASSO_SET', 50_000))
  const reps = envInt('BENCH_LASSO_REPS', 5)
  const root = await ensureRowsCatalog(context, { rows, dim })
  const { client, table, version, close } = await openRowsTable(root)
  const random = seededRandom(5)
  const picked = new Set<number>()
  while (picked.size < size) picked.add(Math.floor(random() * rows))
  const offsets = [...picked]
  const sorted = [...offsets].sort((a, b) => a - b)
  const rowSets = new RowSetModule({ client: () => client })
  const reader = rowSets.readerOf('bench', client)
  const input = { connectionId: 'bench', namespace: [...BENCH_TABLE.namespace], name: BENCH_TABLE.name, version, offsets }
  const loadBefore = loadAverages()

  context.log('lasso: making the row set')
  const makes: number[] = []
  let id = ''
  for (let i = 0; i < reps; i++) {
    const [elapsed, set] = await time(() => rowSets.create(input))
    makes.push(elapsed)
    id = set.id
  }
  const view = { version, rowSet: id }
  const at = { namespace: [...BENCH_TABLE.namespace], name: BENCH_TABLE.name }
  const page = (offset: number, v: object = view) => reader.readPage(at, { offset, limit: PAGE, view: v })

  context.log('lasso: count + first page, a page in the middle')
  const first = await compare(
    async () => {
      await Promise.all([reader.countRows(at, { view }), page(0)])
    },
    () => table.takeOffsets(sorted.slice(0, PAGE)).toArrow(),
    { reps },
  )
  const middle = await compare(
    () => page(size >> 1),
    () => table.takeOffsets(sorted.slice(size >> 1, (size >> 1) + PAGE)).toArrow(),
    { reps },
  )
  context.log('lasso: with a filter')
  const inList = `_rowoffset IN (${sorted.join(',')})`
  // A filter new to each rep (a bound nudged by 1e-9, no row is nearer): the rows' ids a view keeps are not reused.
  let nudge = 0
  const withFilter = await compare(
    async () => {
      const fresh = { ...view, filter: `score > ${50 + ++nudge * 1e-9}` }
      await Promise.all([reader.countRows(at, { view: fresh }), page(0, fresh)])
    },
    async () => {
      // Bare: the matching rows' ids (a limit would be applied before the row positions), then the page by id.
      const ids = await table.query().where(`(${inList}) AND (score > 50)`).select([]).withRowId().toArrow()
      const firstIds = Array.from(ids.getChild('_rowid')!.toArray() as BigInt64Array).slice(0, PAGE)
      await table.takeRowIds(firstIds.map((v) => BigInt(v))).toArrow()
    },
    { reps, warmup: 1 },
  )
  // The next page of the same view: its rows' ids were kept by the count.
  const filtered = { ...view, filter: 'score > 50' }
  await reader.countRows(at, { view: filtered })
  const laterFiltered = await compare(
    () => page(1000, filtered),
    async () => {
      const ids = await table.query().where(`(${inList}) AND (score > 50)`).select([]).withRowId().toArrow()
      const pageIds = Array.from(ids.getChild('_rowid')!.toArray() as BigInt64Array).slice(1000, 1000 + PAGE)
      await table.takeRowIds(pageIds.map((v) => BigInt(v))).toArrow()
    },
    { reps, warmup: 1 },
  )
  await close()
  const make = median(makes)
  return {
    notes: [
      `${count(rows)} rows × ${dim}-d vectors; a lasso of ${count(size)} rows spread over the table; pages of ${PAGE} rows, every column; ${reps} reps (ABBA), medians; load average ${loadBefore} before, ${loadAverages()} after, on this machine's shared cores.`,
      'Bare: lancedb `takeOffsets` of the same rows; with a filter, a `_rowoffset IN (…) AND filter` query for the ids, then `takeRowIds` (Lance applies a limit before a row-position filter, so a limited query would miss rows).',
    ],
    tables: [
      {
        title: 'Lasso (row set)',
        columns: ['measure', 'ours', 'bare', 'ratio / value'],
        rows: [
          [`row set of ${count(size)} offsets made (checked, sorted, kept) (ms)`, ms(make), '—', ms(make)],
          ['count + first page of the lasso view (ms)', ms(first.ours), ms(first.bare), ratio(first.ratio)],
          ['a page in the middle of the lasso view (ms)', ms(middle.ours), ms(middle.bare), ratio(middle.ratio)],
          ['count + first page with a filter (score > 50) (ms)', ms(withFilter.ours), ms(withFilter.bare), ratio(withFilter.ratio)],
          ['a later page of that view (row 1,000; the ids kept) (ms)', ms(laterFiltered.ours), ms(laterFiltered.bare), ratio(laterFiltered.ratio)],
        ],
      },
    ],
  }
}

export const section: Section = { title: 'Lasso (row set)', run }
