import { tableFromIPC, type RecordBatch } from 'apache-arrow'
import type { TableViewSpec } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'

/** Rows per page the stand-in reads: ~12 MB for 768-d vectors (8,192 rows took peak RSS from ~510 to ~770 MiB at 1M rows). */
const SCAN_PAGE_ROWS = 4096

/**
 * Every row of a table view, batch by batch: the one place export reads rows.
 *
 * STAND-IN until `NamespaceClient.scan(id, view, options)` lands (it applies the view's version,
 * filter, sort and search): this one pages `readPage` with the view's `columns` only, one page read
 * ahead while the writer works on the current one. At merge its body becomes
 * `return client.scan(id, view, options)`; nothing else changes.
 */
export function scanView(client: NamespaceClient, id: TableId, view: TableViewSpec, options: { signal?: AbortSignal } = {}): AsyncIterable<RecordBatch> {
  const read = (offset: number) => client.readPage(id, { offset, limit: SCAN_PAGE_ROWS, columns: view.columns, signal: options.signal })
  return (async function* () {
    let next = read(0)
    for (let offset = 0; ; offset += SCAN_PAGE_ROWS) {
      options.signal?.throwIfAborted()
      const page = tableFromIPC(await next)
      const more = page.numRows >= SCAN_PAGE_ROWS
      if (more) {
        next = read(offset + SCAN_PAGE_ROWS)
        next.catch(() => undefined) // awaited on the next round; a cancelled export must not leave it unhandled
      }
      for (const batch of page.batches) if (batch.numRows > 0) yield batch
      if (!more) return
    }
  })()
}
