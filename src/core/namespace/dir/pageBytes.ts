import { Table as ArrowTable, tableFromIPC, type Schema } from 'apache-arrow'
import type { Query, VectorQuery } from '@lancedb/lancedb'
import { emptyIpcStream, fileBuffersToStream, toIpcStream } from '../../arrow'

/** The shape of lancedb's protected `QueryBase.nativeExecute` (0.31.0): an iterator of IPC file-format buffers. */
interface NativeQuery {
  nativeExecute?: () => Promise<{ next(): Promise<Uint8Array | null> }>
}

/**
 * Run a page query and answer Arrow IPC stream bytes. lancedb's native iterator hands out IPC file buffers,
 * which we pass on without decoding (the scrolling hot path, as in `dir/client.ts`); `toArrow()` when that
 * protected method is missing. An empty result keeps the view's columns (lancedb returns no schema then).
 */
export async function queryToIpcStream(query: Query | VectorQuery, emptySchema: () => Schema): Promise<Uint8Array> {
  const native = query as unknown as NativeQuery
  if (typeof native.nativeExecute === 'function') {
    const iterator = await native.nativeExecute()
    const buffers: Uint8Array[] = []
    for (let buffer = await iterator.next(); buffer; buffer = await iterator.next()) buffers.push(buffer)
    if (buffers.length > 0) return fileBuffersToStream(buffers) ?? toIpcStream(new ArrowTable(buffers.flatMap((b) => tableFromIPC(b).batches)))
  } else {
    const page = await query.toArrow()
    if (page.batches.length > 0) return toIpcStream(page)
  }
  return emptyIpcStream(emptySchema())
}
