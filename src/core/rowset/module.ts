import { AppError, MAX_PREDICATE_LENGTH, ROW_OFFSET_COLUMN, viewPredicate, type Input, type RowSetInfo, type TableViewSpec } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'

/** Row sets kept at once; the oldest goes first (a lasso drawn again makes a new one). */
export const ROW_SETS_KEPT = 16
/** Offsets kept over all sets (8 bytes each as numbers: ~32 MB); the oldest sets go first past it. */
export const ROW_SET_OFFSETS_KEPT = 4_000_000

interface RowSet {
  id: string
  connectionId: string
  table: TableId
  version: number
  /** Distinct, ascending: the order of a plain scan, so a page of the set is a slice of it. */
  offsets: number[]
}

export interface RowSetModuleDeps {
  client: (connectionId: string) => NamespaceClient
}

/**
 * Row sets (`rowsets/create`): rows of one table version chosen by offset, kept here so a view names them by id.
 * {@link resolve} turns a view's set into a key list on `_rowoffset`, which the dir reader answers with Lance's
 * take (src/core/namespace/dir/queries.ts) and every other reader as the predicate `_rowoffset IN (…)`.
 */
export class RowSetModule {
  private readonly sets = new Map<string, RowSet>()
  private next = 0

  constructor(private readonly deps: RowSetModuleDeps) {}

  async create(input: Input<'rowsets/create'>): Promise<RowSetInfo> {
    const table: TableId = { namespace: [...input.namespace], name: input.name }
    const client = this.deps.client(input.connectionId)
    const { rowCount } = await client.describeTable(table, { version: input.version })
    const offsets = [...new Set(input.offsets)].sort((a, b) => a - b)
    const last = offsets[offsets.length - 1]!
    if (last >= rowCount)
      throw new AppError('invalid_input', `Row ${last.toLocaleString('en-US')} is past the end of version ${input.version}, which has ${rowCount.toLocaleString('en-US')} rows`, {
        hint: 'The map may describe another version: open it again',
      })
    if (client.implementation === 'rest') {
      // A REST server gets the set as a filter: it has no take by position we could send the offsets to.
      const predicate = viewPredicate({ keys: { column: ROW_OFFSET_COLUMN, values: offsets, integers: true } })!
      if (predicate.length > MAX_PREDICATE_LENGTH)
        throw new AppError('unsupported', `A REST catalog can filter to at most about ${Math.floor(MAX_PREDICATE_LENGTH / (String(rowCount).length + 2)).toLocaleString('en-US')} rows chosen by position; these are ${offsets.length.toLocaleString('en-US')}`, {
          hint: 'Draw a smaller lasso, or open the table from a directory catalog',
        })
    }
    const id = `r${(++this.next).toString(36)}`
    this.sets.set(id, { id, connectionId: input.connectionId, table, version: input.version, offsets })
    this.evict()
    return { id, rows: offsets.length, version: input.version }
  }

  /**
   * The view with its row set (if any) as a key list on `_rowoffset` at the set's version. Refused in words when
   * the set is gone, belongs to another table or version, or the view already has a key list.
   */
  resolve(connectionId: string, table: TableId, view: TableViewSpec): TableViewSpec
  resolve(connectionId: string, table: TableId, view: TableViewSpec | undefined): TableViewSpec | undefined
  resolve(connectionId: string, table: TableId, view: TableViewSpec | undefined): TableViewSpec | undefined {
    if (!view?.rowSet) return view
    const { rowSet, ...rest } = view
    const set = this.sets.get(rowSet)
    if (!set || set.connectionId !== connectionId)
      throw new AppError('not_found', 'The lasso’s rows are no longer kept (only the latest few lassos are)', { hint: 'Clear the lasso and draw it again' })
    if (set.table.name !== table.name || set.table.namespace.join('\u0000') !== table.namespace.join('\u0000'))
      throw new AppError('invalid_input', `The lasso’s rows belong to table ${set.table.name}, not ${table.name}`)
    if (view.version !== undefined && view.version !== set.version)
      throw new AppError('invalid_input', `The lasso’s rows are of version ${set.version}, not ${view.version}`, { hint: 'Clear the lasso and draw it again on this version' })
    if (view.keys) throw new AppError('invalid_input', 'A view cannot hold both a lasso and a key list')
    return { ...rest, version: set.version, keys: { column: ROW_OFFSET_COLUMN, values: set.offsets, integers: true } }
  }

  /**
   * `client` with every view it is given resolved first (pages, counts, scans, plans): the modules that read views
   * (catalog, query, export) are given this one and need not know row sets exist.
   */
  readerOf(connectionId: string, client: NamespaceClient): NamespaceClient {
    const resolve = (id: TableId, view: TableViewSpec | undefined) => this.resolve(connectionId, id, view)
    const overrides: Partial<NamespaceClient> = {
      readPage: (id, options) => client.readPage(id, { ...options, view: resolve(id, options.view) }),
      countRows: (id, options) => client.countRows(id, options && { ...options, view: resolve(id, options.view) }),
      scan: (id, view, options) => client.scan(id, this.resolve(connectionId, id, view), options),
      explainQuery: (id, view, options) => client.explainQuery(id, this.resolve(connectionId, id, view), options),
    }
    return new Proxy(client, {
      get(target, property) {
        if (typeof property === 'string' && property in overrides) return overrides[property as keyof NamespaceClient]
        const value: unknown = Reflect.get(target, property, target)
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
      },
    })
  }

  private evict(): void {
    let total = 0
    for (const set of this.sets.values()) total += set.offsets.length
    for (const [id, set] of this.sets) {
      if (this.sets.size <= ROW_SETS_KEPT && total <= ROW_SET_OFFSETS_KEPT) break
      if (this.sets.size === 1) break
      this.sets.delete(id)
      total -= set.offsets.length
    }
  }

  readonly handlers = {
    'rowsets/create': (input: Input<'rowsets/create'>) => this.create(input),
  }
}
