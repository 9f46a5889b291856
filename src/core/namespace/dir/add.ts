import type { AddResult, Connection, Table as LanceTable } from '@lancedb/lancedb'
import { RecordBatchFileWriter, tableFromIPC, type Table as ArrowTable } from 'apache-arrow'

type NativeAdd = (buf: Buffer, mode: string) => Promise<AddResult>

/**
 * Append `data` to `table` in one Lance commit, with one copy of the rows instead of lancedb's two.
 *
 * lancedb 0.31.0's `Table.add` encodes the Arrow table as an IPC file (`writer.toUint8Array()`, one copy into
 * a contiguous buffer) and then copies that again (`Buffer.from(uint8Array)`) before handing it to the native
 * `add`. At 3 GB per import the second copy was ~10% of the JS thread's time plus its garbage (profiled:
 * `FastBuffer` 105 ms + GC per 311 MB). Here the encoded bytes are wrapped as a Buffer without copying.
 * Falls back to the public `add` when the native call is not where 0.31.0 keeps it, or when the table has
 * embedding functions (which lancedb's `add` applies on the way).
 */
export async function addArrowTable(table: LanceTable, data: ArrowTable): Promise<AddResult> {
  const inner = (table as unknown as { inner?: { add?: NativeAdd } }).inner
  if (typeof inner?.add !== 'function' || data.schema.metadata.has('embedding_functions')) return table.add(data)
  const bytes = RecordBatchFileWriter.writeAll(data).toUint8Array(true)
  return inner.add.call(inner, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'append')
}

/**
 * Append the rows of an Arrow IPC file buffer (already encoded, e.g. record batches copied from the source
 * file) in one Lance commit. Needs the native call; without it the bytes are decoded and added the public way.
 */
export async function addIpcFile(table: LanceTable, ipcFile: Uint8Array): Promise<AddResult> {
  const inner = (table as unknown as { inner?: { add?: NativeAdd } }).inner
  const buf = Buffer.from(ipcFile.buffer, ipcFile.byteOffset, ipcFile.byteLength)
  if (typeof inner?.add === 'function') return inner.add.call(inner, buf, 'append')
  return table.add(tableFromIPC(buf))
}

type NativeCreate = (name: string, buf: Buffer, mode: string, namespace: string[], storageOptions?: Record<string, string>) => Promise<unknown>

/**
 * Create a table from an Arrow IPC file buffer, as lancedb's `createTable` does once it has encoded its input
 * (connection.js `_createTableImpl`). Without the native call there the bytes are decoded and given to it.
 */
export async function createFromIpc(db: Connection, name: string, namespace: string[], ipcFile: Uint8Array, mode: 'create' | 'overwrite', storageOptions?: Record<string, string>): Promise<void> {
  const inner = (db as unknown as { inner?: { createTable?: NativeCreate } }).inner
  const buf = Buffer.from(ipcFile.buffer, ipcFile.byteOffset, ipcFile.byteLength)
  if (typeof inner?.createTable === 'function') await inner.createTable.call(inner, name, buf, mode, namespace, storageOptions)
  else await db.createTable(name, tableFromIPC(buf), namespace, { mode, ...(storageOptions ? { storageOptions } : {}) })
}
