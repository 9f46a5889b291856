import { tableFromIPC, type RecordBatch } from 'apache-arrow'
import type { TableViewSpec } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'

/** Rows per page the stand-in reads (bounded by bytes in practice: ~30 MB for 768-d vectors). */
const SCAN_PAGE_ROWS = 8192

/**
 * Every row of a table view, batch by batch: the one place export reads rows.
 *
 * STAND-IN until `NamespaceClient.scan(id, view, options)` lands (it applies the view's version,
 * filter, sort and search): this one pages `readPage` with the view's `columns` only. At merge its
 * body becomes `return client.scan(id, view, options)`; nothing else changes.
 */
export function scanView(client: NamespaceClient, id: TableId, view: TableViewSpec, options: { signal?: AbortSignal } = {}): AsyncIterable<RecordBatch> {
  return (async function* () {
    for (let offset = 0; ; offset += SCAN_PAGE_ROWS) {
      options.signal?.throwIfAborted()
      const bytes = await client.readPage(id, { offset, limit: SCAN_PAGE_ROWS, columns: view.columns, signal: options.signal })
      const page = tableFromIPC(bytes)
      for (const batch of page.batches) if (batch.numRows > 0) yield batch
      if (page.numRows < SCAN_PAGE_ROWS) return
    }
  })()
}
