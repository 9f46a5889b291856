import { Field, Float32, Schema, Table as ArrowTable, tableFromIPC } from 'apache-arrow'
import type { Query, VectorQuery } from '@lancedb/lancedb'
import { AppError, type TableViewSpec } from '../../contract'
import { emptyIpcStream, fileBuffersToStream, toIpcStream } from '../arrow'

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

/** The columns a view's result has: its projection (or every column), plus `_distance` or `_score` for a search. */
export function viewSchema(schema: Schema, view: TableViewSpec): Schema {
  const fields = view.columns
    ? view.columns.map((name) => {
        const field = schema.fields.find((f) => f.name === name)
        if (!field) throw new AppError('invalid_input', `Unknown column "${name}"`)
        return field
      })
    : [...schema.fields]
  if (view.search?.kind === 'vector') fields.push(new Field('_distance', new Float32(), true))
  if (view.search?.kind === 'fts') fields.push(new Field('_score', new Float32(), true))
  return new Schema(fields, schema.metadata)
}
