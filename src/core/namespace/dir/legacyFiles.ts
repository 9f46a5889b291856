import type { Table as LanceTable } from '@lancedb/lancedb'
import { Table as ArrowTable, type RecordBatch } from 'apache-arrow'
import { ROW_OFFSET_COLUMN, type TableViewSpec } from '../../../contract'

/**
 * Tables whose data files are Lance's legacy format (v1: written by vectordb ≤ 0.4, or by any lancedb with
 * `data_storage_version = legacy`; which tables, ./dataFormat.ts `dataFilesOf` says). On those, lancedb 0.31 (and
 * 0.39) cannot read rows' columns by id or by position: `takeRowIds` / `takeOffsets` and a filter on `_rowid` /
 * `_rowoffset` fail with "Attempt to perform FilteredRead on v1 files", while a scan — with a filter on ordinary
 * columns, `orderBy`, `offset`/`limit`, and `_rowid` selected as a column — works. The reads here are the fallback
 * paths for those tables.
 */

/** Offsets closer than this are read by one scan (the rows between are read and dropped), farther ones by another. */
const RUN_GAP_ROWS = 1024
/**
 * More runs than this are read as one scan from the first to the last: Lance reaches an offset by reading the rows
 * before it (measured on 200,000 rows of 32-d vectors: offset 150,000 ≈ 50 ms, a whole scan ≈ 340 ms; 100 runs
 * spread over the table 2.3 s as 100 scans).
 */
const MAX_RUNS = 8

/**
 * The rows at these plain-scan positions (`_rowoffset`), in the order asked, with `columns` (every column when
 * none are named) and `_rowid` when asked — the legacy-files stand-in for `takeOffsets`. The positions are cut into
 * runs (neighbours closer than {@link RUN_GAP_ROWS}); each run is one scan with `offset`/`limit`, which Lance can
 * read on legacy files — or, past {@link MAX_RUNS} runs, one scan from the first to the last. Memory holds the
 * picked rows and one batch.
 */
export async function pickOffsets(table: LanceTable, offsets: readonly number[], columns: string[] | undefined, withRowId = false): Promise<ArrowTable> {
  const names = columns ?? (await table.schema()).fields.map((f) => f.name)
  const wanted = [...new Set(offsets)].sort((a, b) => a - b)
  const picked = new Map<number, ArrowTable>()
  let schema: ArrowTable['schema'] | undefined
  for (const [from, to] of runsOf(wanted)) {
    const inRun = new Set(wanted.filter((o) => o >= from && o <= to))
    // A plain scan's n-th row is at position n (deleted rows not counted): count, rather than select Lance's
    // `_rowoffset`, which is not always the scan position (see DirQueries.positionOffsets).
    let query = table.query().select(names)
    if (withRowId) query = query.withRowId()
    if (from > 0) query = query.offset(from)
    query = query.limit(to - from + 1)
    let at = from
    for await (const batch of query as AsyncIterable<RecordBatch>) {
      const rows = new ArrowTable([batch])
      schema ??= rows.schema
      for (let i = 0; i < rows.numRows; i++, at++) if (inRun.has(at)) picked.set(at, rows.slice(i, i + 1))
    }
  }
  const batches: RecordBatch[] = []
  for (const offset of offsets) batches.push(...(picked.get(offset)?.batches ?? []))
  if (!schema) {
    // Nothing read (no offsets, or none in range): an empty table of the asked columns.
    let query = table.query().select(names).limit(1)
    if (withRowId) query = query.withRowId()
    return (await query.toArrow()).slice(0, 0)
  }
  return new ArrowTable(schema, batches)
}

/** `[first, last]` of each run of sorted `offsets`, or one run over them all when they make too many. */
function runsOf(offsets: readonly number[]): Array<[number, number]> {
  const runs: Array<[number, number]> = []
  for (const offset of offsets) {
    const last = runs.at(-1)
    if (last && offset - last[1] <= RUN_GAP_ROWS) last[1] = offset
    else runs.push([offset, offset])
  }
  return runs.length > MAX_RUNS ? [[runs[0]![0], runs.at(-1)![1]]] : runs
}

/** A row set as another app's REST client sends it: `_rowoffset IN (…)`, alone or `(…) AND (filter)` (viewPredicate). */
const ROW_SET_FILTER = /^(?:_rowoffset IN \(([\d, ]+)\)|\(_rowoffset IN \(([\d, ]+)\)\) AND \(([\s\S]*)\))$/

/**
 * The view with a row set written as a filter (our REST client sends the lasso as `_rowoffset IN (…)`, which legacy
 * files refuse) turned back into the row set's positions, which the legacy paths read by scans. Any other filter
 * is left as it is (Lance reports its own error when it names a row's position).
 */
export function rowSetOfFilter(view: TableViewSpec): TableViewSpec {
  if (view.keys || view.search || !view.filter) return view
  const match = ROW_SET_FILTER.exec(view.filter.trim())
  if (!match) return view
  const values = (match[1] ?? match[2]!).split(',').map((v) => Number(v.trim()))
  return { ...view, filter: match[3], keys: { column: ROW_OFFSET_COLUMN, values, integers: true } }
}
