import type { TableProfile, TableRef, TableViewSpec } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { ColumnAccumulator, columnKind, countsDistinct, exactDistinctLimit, isScanned } from './columns'

export interface ProfileOptions {
  signal?: AbortSignal
  /** Only the rows of this row set (the map's lasso); the client given must resolve it (RowSetModule.readerOf). */
  rowSet?: string | null
  onProgress?: (progress: { rows: number; totalRows: number | null }) => void
  progressIntervalMs?: number
}

/**
 * Profile a table view at `version`: one streaming scan of the view's rows (its filter applied in Lance)
 * reading only the columns a profile describes, each batch fed to one accumulator per column. Sort and
 * search do not change what the rows hold, so they are left out of the scan.
 */
export async function profileView(client: NamespaceClient, table: TableRef, version: number, filter: string | null, options: ProfileOptions = {}): Promise<TableProfile> {
  const started = Date.now()
  const id = { namespace: table.namespace, name: table.name }
  const description = await client.describeTable(id, { version, signal: options.signal })
  const limit = exactDistinctLimit(description.schema.fields.filter((f) => countsDistinct(columnKind(f.type))).length)
  const accumulators = description.schema.fields.map((field) => new ColumnAccumulator(field, limit))
  const scanned = accumulators.filter((a) => isScanned(a.kind))
  const base: TableViewSpec = { version, ...(filter ? { filter } : {}), ...(options.rowSet ? { rowSet: options.rowSet } : {}) }
  const totalRows = filter || options.rowSet ? null : description.rowCount
  let rows = 0
  if (scanned.length === 0) {
    rows = await client.countRows(id, { view: base, signal: options.signal })
  } else {
    const columns = description.schema.fields.filter((_, i) => isScanned(accumulators[i]!.kind)).map((f) => f.name)
    const interval = options.progressIntervalMs ?? 100
    let lastEmit = 0
    // The next batch is asked for before this one is counted, so Lance reads and decodes it on its own
    // threads while ours run the statistics (one batch ahead: a few MiB more at most).
    const batches = client.scan(id, { ...base, columns }, { signal: options.signal })[Symbol.asyncIterator]()
    let next = batches.next()
    try {
      for (;;) {
        const current = await next
        if (current.done) break
        options.signal?.throwIfAborted()
        next = batches.next()
        const batch = current.value
        for (const accumulator of scanned) {
          const column = batch.getChild(accumulator.name)
          if (column) accumulator.add(column)
        }
        rows += batch.numRows
        const now = Date.now()
        if (options.onProgress && now - lastEmit >= interval) {
          lastEmit = now
          options.onProgress({ rows, totalRows })
        }
      }
    } finally {
      // Settle the batch asked for ahead (its error, if any, is the scan's own) before closing the scan.
      await next.catch(() => undefined)
      await batches.return?.(undefined)
    }
    options.signal?.throwIfAborted()
  }
  return {
    table: { connectionId: table.connectionId, namespace: [...table.namespace], name: table.name },
    version,
    filter,
    rows,
    columns: accumulators.map((a) => a.result()),
    computedAt: Date.now(),
    elapsedMs: Date.now() - started,
  }
}
