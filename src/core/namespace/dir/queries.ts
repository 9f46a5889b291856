import type { Query, Table as LanceTable, VectorQuery } from '@lancedb/lancedb'
import type { RecordBatch, Schema } from 'apache-arrow'
import { AppError, ROW_OFFSET_COLUMN, viewPredicate, type TableViewSpec } from '../../../contract'
import { schemaFields } from '../../arrow'
import type { CallOptions, IndexSummary, TableDescription } from '../client'
import { formatTableId, type TableId } from '../path'
import { buildQuery, viewNarrowsRows } from './buildQuery'
import type { QueryWindow } from '../../query/window'
import { queryInputError } from '../../query/errors'
import { emptyIpcStream, toIpcStream } from '../../arrow'
import { queryToIpcStream } from './pageBytes'
import { viewSchema } from '../../query/viewSchema'
import { scanSorted, sortedRowIds, takeInOrder } from './sortedReads'
import { pickOffsets, rowSetOfFilter } from './legacyFiles'
import { dataFilesOf } from './dataFormat'
import { assertViewMatchesSchema } from '../../query/validate'
import { typeDateLiterals, type TypedFilter } from '../../query/typedLiterals'
import { SCAN_WINDOW_ROWS, scanWindows } from './windowedScan'
import type { TableHandles } from './handles'

/** Rows per batch of {@link DirQueries.scanRowAddresses}' one read (see there). */
const ADDRESS_BATCH_ROWS = 65_536
/** Offsets per take of {@link DirQueries.takeRows}. */
const TAKE_SLICE_ROWS = 8192
/** Row-position views whose rows' ids are kept per version handle (see DirQueries.positionIds). */
const POSITION_VIEWS_KEPT = 4
/** Lance's columns naming a row's position, which its count pushdown cannot filter on. */
const ROW_POSITION = /\b_row(offset|id|addr)\b/

interface Pinned {
  table: LanceTable
  schema: Schema
}

/** What a read sent Lance, for its error: the filter as typed ({@link typeDateLiterals}), to point into the user's text. */
interface Sent {
  filter?: { original: string; typed: TypedFilter }
}

export interface DirQueryHooks {
  /** Open the table afresh (at its latest version). */
  open(id: TableId): Promise<LanceTable>
  /** Map a Lance error to an AppError (the namespace's own mapping). */
  mapError(error: unknown, id: TableId): AppError
  /** The connection's open handles, where a version's handle is kept (shared with the client's own reads). */
  handles: TableHandles
}

/**
 * Reads of a `dir` table through a view. Every read goes through a handle checked out at exactly the view's
 * version, so the header, the count and every page name one version even while other processes write
 * (one version per view). A view without a version reads the latest version, opened afresh.
 */
export class DirQueries {
  /** The schema of each version-pinned handle (a version's schema never changes). */
  private readonly schemas = new WeakMap<LanceTable, Promise<Schema>>()
  /** The row ids of each row set's offsets (keyed by the set's own offset list), for searches ({@link searchable}). */
  private readonly rowIds = new WeakMap<number[], Promise<string[]>>()
  /** The rows' ids of row-position views, per version handle ({@link positionIds}). */
  private readonly idsByView = new WeakMap<LanceTable, Map<string, Promise<bigint[]>>>()
  /** The same for legacy-file tables, as positions ({@link positionOffsets}). */
  private readonly offsetsByView = new WeakMap<LanceTable, Map<string, Promise<number[]>>>()

  constructor(private readonly hooks: DirQueryHooks) {}

  /** Describe `id` at `version` (default: the latest), with its indexes, and the latest version. */
  async describe(id: TableId, options: CallOptions & { version?: number } = {}): Promise<TableDescription> {
    return this.run(id, async () => {
      const latest = await this.hooks.open(id)
      const latestVersion = await latest.version()
      const version = options.version ?? latestVersion
      if (version > latestVersion) throw new AppError('not_found', `Table ${formatTableId(id)} has no version ${version} (the latest is ${latestVersion})`)
      if (options.version === undefined) {
        // The fresh handle is the latest version: pin it so later pages read exactly this one.
        await latest.checkout(version)
        this.hooks.handles.keep(id, version, Promise.resolve(latest))
      }
      const { table, schema } = await this.at(id, version)
      options.signal?.throwIfAborted()
      const [rowCount, indexes] = await Promise.all([table.countRows(), indexesOf(table)])
      return { name: id.name, namespace: [...id.namespace], rowCount, version, latestVersion, schema, fields: schemaFields(schema), indexes }
    })
  }

  /** The latest version, read from a fresh handle (a cheap "has it changed?" check). */
  latestVersion(id: TableId): Promise<number> {
    return this.run(id, async () => (await this.hooks.open(id)).version())
  }

  /** Rows `[offset, offset + limit)` of the view as Arrow IPC stream bytes. */
  async page(id: TableId, asked: TableViewSpec, window: QueryWindow & CallOptions): Promise<Uint8Array> {
    const sent: Sent = {}
    return this.run(id, async () => {
      const { table, schema, view: typed } = await this.checked(id, asked, sent)
      const view = await this.searchable(table, typed)
      window.signal?.throwIfAborted()
      const offsets = rowOffsetsOf(view)
      if (readsByPosition(view) && (await dataFilesOf(table)) === 'legacy') return this.legacyPage(table, schema, rowSetOfFilter(view), window)
      if (offsets && !view.search && !viewPredicate({ filter: view.filter }) && !isSorted(view)) {
        // A row set alone (the map's lasso): its page is a slice of its offsets, taken by position.
        const start = window.offset ?? 0
        const slice = offsets.slice(start, window.limit !== undefined ? start + window.limit : undefined)
        if (slice.length === 0) return emptyIpcStream(viewSchema(schema, view))
        let take = table.takeOffsets(slice)
        if (view.columns) take = take.select(view.columns)
        if (window.withRowId) take = take.withRowId()
        return toIpcStream(await take.toArrow())
      }
      const rowPosition = !view.search && ROW_POSITION.test(viewPredicate(view) ?? '')
      if (isSorted(view) && !window.withRowId && !window.fastSearch) {
        // Lance applies a limit before a row-position filter: sort the whole row set's keys, then cut the page.
        // A row-position view's sorted ids are kept (every page of a sorted lasso would sort the whole set again).
        const all = rowPosition ? await this.positionIds(table, view, true) : await sortedRowIds(table, view, window)
        const start = rowPosition ? (window.offset ?? 0) : 0
        const ids = rowPosition ? all.slice(start, window.limit !== undefined ? start + window.limit : undefined) : all
        window.signal?.throwIfAborted()
        if (ids.length === 0) return emptyIpcStream(viewSchema(schema, view))
        return toIpcStream(await takeInOrder(table, ids, view.columns))
      }
      if (rowPosition && (window.offset || window.limit !== undefined)) {
        // Lance applies a limit before a row-position filter (`_rowoffset IN (…)`, a lasso's row set), so a page
        // would miss rows: find the matching rows' ids whole (no columns: a row set of 50,000 rows of wide vectors
        // stays small), cut the page here and take its rows (in scan order, as the ids came).
        const all = await this.positionIds(table, view)
        const start = window.offset ?? 0
        const ids = all.slice(start, window.limit !== undefined ? start + window.limit : undefined)
        if (ids.length === 0) return emptyIpcStream(viewSchema(schema, view))
        if (!window.withRowId) return toIpcStream(await takeInOrder(table, ids, view.columns))
        let take = table.takeRowIds(ids).withRowId()
        if (view.columns) take = take.select(view.columns)
        return toIpcStream(await take.toArrow())
      }
      const query = buildQuery(table, view, window)
      return queryToIpcStream(query, () => viewSchema(schema, view))
    }, sent)
  }

  /** How many rows the view has: the filter's count, or the number of search results. */
  async count(id: TableId, asked: TableViewSpec, options: CallOptions = {}): Promise<number> {
    const sent: Sent = {}
    return this.run(id, async () => {
      const { table, view: typed } = await this.checked(id, asked, sent)
      const searched = await this.searchable(table, typed)
      options.signal?.throwIfAborted()
      const legacy = readsByPosition(searched) && (await dataFilesOf(table)) === 'legacy'
      const view = legacy ? rowSetOfFilter(searched) : searched
      const offsets = rowOffsetsOf(view)
      // A row set alone: its offsets were checked against this version's row count when it was made.
      if (offsets && !view.search && !viewPredicate({ filter: view.filter })) return offsets.length
      if (offsets && !view.search && legacy) return (await this.positionOffsets(table, view)).length
      const filter = viewNarrowsRows(view) ? viewPredicate(view) : undefined
      if (!view.search && !(filter && ROW_POSITION.test(filter))) return table.countRows(filter)
      if (!view.search) {
        // Lance's count pushdown refuses a filter on a row's position (`_rowoffset IN (…)`, the map's lasso); its
        // scan takes it, so count the matching rows' ids (kept for the view's pages).
        return (await this.positionIds(table, view)).length
      }
      // A search has at most k results; count them without reading their columns.
      const result = await buildQuery(table, { ...view, columns: [] }, { withRowId: true }).toArrow()
      return result.numRows
    }, sent)
  }

  /** Lance's plan for the view's query (`explainPlan`), or the executed plan with metrics (`analyzePlan`). */
  async explain(id: TableId, asked: TableViewSpec, options: CallOptions & { analyze?: boolean; verbose?: boolean } & QueryWindow = {}): Promise<string> {
    const sent: Sent = {}
    return this.run(id, async () => {
      const { table, view: typed } = await this.checked(id, asked, sent)
      const view = await this.searchable(table, typed)
      const query = buildQuery(table, view, options)
      const plan = options.analyze ? await query.analyzePlan() : await query.explainPlan(options.verbose ?? false)
      const fallback = readsByPosition(view) && (await dataFilesOf(table)) === 'legacy' ? legacyReadPath(rowSetOfFilter(view)) : undefined
      return fallback ? `${fallback}\n\n${plan}` : plan
    }, sent)
  }

  /** Every row of the view, batch by batch, from one streaming Lance query (no offset paging). */
  async *scan(id: TableId, asked: TableViewSpec, options: CallOptions & QueryWindow & { nextWindowEarly?: boolean; batchRows?: number } = {}): AsyncGenerator<RecordBatch> {
    const sent: Sent = {}
    const { table, view: typed } = await this.run(id, () => this.checked(id, asked, sent), sent)
    const view = await this.run(id, () => this.searchable(table, typed), sent)
    if (readsByPosition(view) && (await this.run(id, () => dataFilesOf(table))) === 'legacy') {
      yield* this.batchesOf(id, this.legacyScan(table, rowSetOfFilter(view), options), options.signal, sent)
      return
    }
    const iterator = isSorted(view)
      ? scanSorted(table, view, options.signal)
      : !view.search && !viewNarrowsRows(view) && options.offset === undefined && options.limit === undefined
        ? scanWindows(table, view, options.signal, SCAN_WINDOW_ROWS, options.nextWindowEarly !== false)
        : batchesOfLength(buildQuery(table, view, options), options.batchRows)
    yield* this.batchesOf(id, iterator, options.signal, sent)
  }

  /**
   * The `column` of every row at `version` with its row address (`_rowaddr`: fragment and offset). Lance never
   * changes a written data file: an update deletes the old row and appends the new one elsewhere, so a row at the
   * same address in two versions is the same stored row (what a version diff uses to skip unchanged rows).
   */
  async *scanRowAddresses(id: TableId, version: number, column: string, options: CallOptions = {}): AsyncGenerator<RecordBatch> {
    const { table } = await this.run(id, () => this.checked(id, { version, columns: [column] }))
    // One query read whole in batches of up to 64Ki rows: Lance's default 1,024-row batches each cross from Rust
    // to JS (IPC bytes, decoded), ~1,000 crossings per million rows and most of the scan's time, and a streaming
    // query cannot be given a batch length through the public API. Two narrow columns: ~16 bytes a row.
    options.signal?.throwIfAborted()
    const result = await this.run(id, () => table.query().select([column, '_rowaddr']).toArrow({ maxBatchLength: ADDRESS_BATCH_ROWS }))
    options.signal?.throwIfAborted()
    yield* result.batches
  }

  /**
   * The `columns` of the rows at `offsets` of `version` (the n-th row of a plain scan, deleted rows not counted):
   * Lance's take reads those rows' pages alone, where a filter would scan the whole table.
   */
  async *takeRows(id: TableId, version: number, offsets: number[], columns: string[], options: CallOptions = {}): AsyncGenerator<RecordBatch> {
    const { table } = await this.run(id, () => this.checked(id, { version, columns }))
    if (offsets.length === 0) return
    const legacy = (await this.run(id, () => dataFilesOf(table))) === 'legacy'
    // In slices, each read whole (few crossings to JS) while wide rows stay bounded in memory.
    for (let first = 0; first < offsets.length; first += TAKE_SLICE_ROWS) {
      options.signal?.throwIfAborted()
      const slice = offsets.slice(first, first + TAKE_SLICE_ROWS)
      const result = await this.run(id, () => (legacy ? pickOffsets(table, slice, columns) : table.takeOffsets(slice).select(columns).toArrow({ maxBatchLength: TAKE_SLICE_ROWS })))
      options.signal?.throwIfAborted()
      yield* result.batches
    }
  }

  /** A scan's batches, each read under the table's handle (`run`), stopped between batches when `signal` aborts. */
  private async *batchesOf(id: TableId, iterator: AsyncIterator<RecordBatch>, signal?: AbortSignal, sent?: Sent): AsyncGenerator<RecordBatch> {
    try {
      for (;;) {
        signal?.throwIfAborted()
        const next = await this.run(id, () => iterator.next(), sent)
        if (next.done) return
        yield next.value
      }
    } finally {
      await iterator.return?.()
    }
  }

  // ---- legacy (v1) data files: no take by id or position, no filter on `_rowoffset` (query/legacyFiles.ts) ----

  /**
   * A page of a legacy-file table. A sort is Lance's own (`orderBy` with `offset`/`limit`: a TopK over
   * `offset + limit` rows of the view's columns, where 2.x tables sort keys and take rows by id); go to row is
   * that offset. A row set (the lasso) is a list of positions: with a filter or a sort its matching positions are
   * found by a scan ({@link positionOffsets}), and the page's rows read by position runs ({@link pickOffsets}).
   */
  private async legacyPage(table: LanceTable, schema: Schema, view: TableViewSpec, window: QueryWindow & CallOptions): Promise<Uint8Array> {
    const offsets = rowOffsetsOf(view)
    if (!offsets || view.search) return queryToIpcStream(buildQuery(table, view, window), () => viewSchema(schema, view))
    const all = viewPredicate({ filter: view.filter }) || isSorted(view) ? await this.positionOffsets(table, view) : offsets
    const start = window.offset ?? 0
    const slice = all.slice(start, window.limit !== undefined ? start + window.limit : undefined)
    window.signal?.throwIfAborted()
    if (slice.length === 0) return emptyIpcStream(viewSchema(schema, view))
    return toIpcStream(await pickOffsets(table, slice, view.columns, window.withRowId))
  }

  /** Every row of a legacy-file view: a row set's rows by position runs, a chunk at a time; else one Lance scan. */
  private async *legacyScan(table: LanceTable, view: TableViewSpec, options: CallOptions & QueryWindow): AsyncGenerator<RecordBatch> {
    const offsets = rowOffsetsOf(view)
    if (!offsets || view.search) {
      yield* buildQuery(table, view, options) as AsyncIterable<RecordBatch>
      return
    }
    const all = viewPredicate({ filter: view.filter }) || isSorted(view) ? await this.positionOffsets(table, view) : offsets
    const start = options.offset ?? 0
    const wanted = all.slice(start, options.limit !== undefined ? start + options.limit : undefined)
    for (let first = 0; first < wanted.length; first += TAKE_SLICE_ROWS) {
      options.signal?.throwIfAborted()
      yield* (await pickOffsets(table, wanted.slice(first, first + TAKE_SLICE_ROWS), view.columns, options.withRowId)).batches
    }
  }

  /**
   * The positions of a legacy-file row-set view's rows, in scan order or the view's sort order: the set's rows' ids
   * from a plain scan of ids, then one scan of the filter's rows (sorted by Lance when the view is) reading the sort
   * columns and `_rowid`. Kept per version handle, as {@link positionIds}.
   */
  private positionOffsets(table: LanceTable, view: TableViewSpec): Promise<number[]> {
    const key = JSON.stringify([viewPredicate(view) ?? '', isSorted(view) ? view.sort : null])
    let kept = this.offsetsByView.get(table)
    if (!kept) this.offsetsByView.set(table, (kept = new Map()))
    let found = kept.get(key)
    if (!found) {
      const byKey = kept
      found = (async () => {
        // Lance's `_rowoffset` is not the scan position once a query sorts (seen: one position twice, one missing),
        // so count positions in a plain scan of the rows' ids (up to the set's last), then keep the sorted or
        // filtered scan's ids that are the set's. Memory: one id per row of the set.
        const set = new Set(rowOffsetsOf(view) ?? [])
        if (set.size === 0) return []
        const positionOf = new Map<bigint, number>()
        let position = 0
        const last = [...set].reduce((a, b) => Math.max(a, b), -1)
        for await (const batch of table.query().select([]).withRowId().limit(last + 1) as AsyncIterable<RecordBatch>) {
          for (const id of batch.getChild('_rowid') as Iterable<bigint>) {
            if (set.has(position)) positionOf.set(BigInt(id), position)
            position++
          }
        }
        const sortColumns = [...new Set((view.sort ?? []).map((s) => s.column))]
        const query = buildQuery(table, { filter: view.filter, sort: isSorted(view) ? view.sort : undefined, columns: sortColumns }, { withRowId: true })
        const positions: number[] = []
        for await (const batch of query as AsyncIterable<RecordBatch>) {
          for (const id of batch.getChild('_rowid') as Iterable<bigint>) {
            const at = positionOf.get(BigInt(id))
            if (at !== undefined) positions.push(at)
          }
        }
        return positions
      })()
      byKey.set(key, found)
      found.catch(() => byKey.delete(key))
      for (const old of byKey.keys()) if (byKey.size > POSITION_VIEWS_KEPT) byKey.delete(old)
    }
    return found
  }

  // ---- helpers ----------------------------------------------------------------------------

  /**
   * The ids of a row-position view's rows (a filter naming `_rowoffset`, a lasso's row set with a filter), in scan
   * order — or in the view's sort order when `sorted` — found once (a scan of no columns, or the sort's key scan)
   * and kept for the view's count and every page: without them each page would scan again (~1 s for 50,000
   * offsets of 200,000 rows). The latest few views per version handle.
   */
  private positionIds(table: LanceTable, view: TableViewSpec, sorted = false): Promise<bigint[]> {
    const key = JSON.stringify([viewPredicate(view) ?? '', sorted ? (view.sort ?? null) : null])
    let kept = this.idsByView.get(table)
    if (!kept) this.idsByView.set(table, (kept = new Map()))
    let ids = kept.get(key)
    if (!ids) {
      const byKey = kept
      ids = sorted
        ? sortedRowIds(table, view, {})
        : (async () => {
            const found = await buildQuery(table, { ...view, columns: [], sort: undefined }, { withRowId: true }).toArrow()
            const column = found.getChild('_rowid')
            return column ? Array.from(column as Iterable<bigint>, (v) => BigInt(v)) : []
          })()
      byKey.set(key, ids)
      ids.catch(() => byKey.delete(key))
      for (const old of byKey.keys()) if (byKey.size > POSITION_VIEWS_KEPT) byKey.delete(old)
    }
    return ids
  }

  /**
   * A search over a row set: Lance's vector and text searches know no `_rowoffset` (the scan's row position), but
   * prefilter on `_rowid`, so the set's offsets are turned into its rows' ids once (a take of no columns) and kept
   * with the set (a set belongs to one version, so its ids never change).
   */
  private async searchable(table: LanceTable, view: TableViewSpec): Promise<TableViewSpec> {
    const offsets = rowOffsetsOf(view)
    if (!offsets || !view.search) return view
    let ids = this.rowIds.get(offsets)
    if (!ids) {
      ids = (async () => {
        const found: string[] = []
        for (let first = 0; first < offsets.length; first += TAKE_SLICE_ROWS) {
          const taken = await table.takeOffsets(offsets.slice(first, first + TAKE_SLICE_ROWS)).select([]).withRowId().toArrow()
          for (const id of taken.getChild('_rowid')!) found.push(String(id))
        }
        return found
      })()
      this.rowIds.set(offsets, ids)
      ids.catch(() => this.rowIds.delete(offsets))
    }
    return { ...view, keys: { column: '_rowid', values: await ids, integers: true } }
  }

  /**
   * The handle for the view's version, with the view's columns checked against that version's schema, and the
   * view as Lance gets it: a quoted date compared with a date or timestamp column typed (src/core/query/typedLiterals.ts).
   */
  private async checked(id: TableId, asked: TableViewSpec, sent?: Sent): Promise<Pinned & { view: TableViewSpec }> {
    const pinned = asked.version === undefined ? await this.latestPinned(id) : await this.at(id, asked.version)
    assertViewMatchesSchema(asked, pinned.schema)
    const filter = asked.filter?.trim() ? asked.filter : undefined
    if (filter === undefined) return { ...pinned, view: asked }
    const typed = typeDateLiterals(filter, pinned.schema)
    if (sent) sent.filter = { original: filter, typed }
    return { ...pinned, view: typed.edits.length > 0 ? { ...asked, filter: typed.text } : asked }
  }

  private async latestPinned(id: TableId): Promise<Pinned> {
    const table = await this.hooks.open(id)
    return { table, schema: await table.schema() }
  }

  /** A handle checked out at `version`, opened once and reused (a version never changes). */
  private async at(id: TableId, version: number): Promise<Pinned> {
    const table = await (this.hooks.handles.get(id, version) ??
      this.hooks.handles.keep(
        id,
        version,
        (async () => {
          const table = await this.hooks.open(id)
          try {
            await table.checkout(version)
          } catch (error) {
            throw new AppError('not_found', `Table ${formatTableId(id)} has no version ${version}`, { detail: error instanceof Error ? error.message : String(error), hint: 'Reload the table' })
          }
          return table
        })(),
      ))
    let schema = this.schemas.get(table)
    if (!schema) {
      schema = table.schema()
      this.schemas.set(table, schema)
      schema.catch(() => this.schemas.delete(table))
    }
    return { table, schema: await schema }
  }

  private async run<T>(id: TableId, work: () => Promise<T>, sent?: Sent): Promise<T> {
    try {
      return await work()
    } catch (error) {
      throw queryInputError(error, sent?.filter) ?? this.hooks.mapError(error, id)
    }
  }
}

/** The offsets of a view's row set (core resolved it to a key list on `_rowoffset`: src/core/rowset), else null. */
function rowOffsetsOf(view: TableViewSpec): number[] | null {
  return view.keys?.column === ROW_OFFSET_COLUMN ? (view.keys.values as number[]) : null
}

/**
 * What Explain says of a legacy-file table's view (query/legacyFiles.ts): how its rows are read instead of a take,
 * or nothing when the view reads none by id or position.
 */
function legacyReadPath(view: TableViewSpec): string | undefined {
  const head = 'Data files: Lance legacy format (v1). Lance cannot take rows by id or position from them, so'
  if (rowOffsetsOf(view) && !view.search) {
    return viewPredicate({ filter: view.filter }) || isSorted(view)
      ? `${head} the row set's positions are found by a scan of \`_rowoffset\`${isSorted(view) ? ' in sort order' : ''} (the plan below is that scan's, with the row set's filter), and each page's rows are read by offset and limit.`
      : `${head} the row set's rows are read by offset and limit around their positions (the plan below takes them by \`_rowoffset\`, which v1 files refuse).`
  }
  if (isSorted(view)) return `${head} a sorted page is Lance's own sort with offset and limit (a TopK over offset + limit rows of the view's columns), not sort keys then a take by id.`
  return undefined
}

/**
 * Whether a 2.x table would read the view's rows by id or position (a take, or a filter on a row's position): a
 * sort, a row set, or a filter naming `_rowoffset` / `_rowid` / `_rowaddr`. Only those ask the table's format.
 */
function readsByPosition(view: TableViewSpec): boolean {
  return isSorted(view) || (!!rowOffsetsOf(view) && !view.search) || (!view.search && ROW_POSITION.test(viewPredicate(view) ?? ''))
}

/** A plain view with a sort (a search is ordered by its score instead). */
function isSorted(view: TableViewSpec): boolean {
  return !view.search && (view.sort?.length ?? 0) > 0
}

/** The table's indexes, as the UI needs them (which columns can be searched, and how). */
async function indexesOf(table: LanceTable): Promise<IndexSummary[]> {
  const list = await table.listIndices()
  return list.map((i) => ({ name: i.name, type: i.indexType, columns: [...i.columns] }))
}

/**
 * A query's batches, `rows` rows each where given: lancedb's stream takes a batch length only through its
 * `execute(options)`, which its typings mark protected (the public iterator always asks for Lance's 1,024).
 */
function batchesOfLength(query: Query | VectorQuery, rows: number | undefined): AsyncIterator<RecordBatch> {
  if (rows === undefined) return query[Symbol.asyncIterator]()
  const open = query as unknown as { execute(options: { maxBatchLength: number }): AsyncGenerator<RecordBatch> }
  return open.execute({ maxBatchLength: rows })
}
