import type { RecordBatch } from 'apache-arrow'
import type { TableViewSpec } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'

/** Every row of a table view, batch by batch (its version, filter, sort, search and columns): the one place export reads rows. */
export function scanView(client: NamespaceClient, id: TableId, view: TableViewSpec, options: { signal?: AbortSignal } = {}): AsyncIterable<RecordBatch> {
  // The writer is slower than Lance: a window opened early would only be held longer (~50 MiB more at 768-d).
  return client.scan(id, view, { ...options, nextWindowEarly: false })
}
