import { DataType, makeVector, tableFromIPC, type Data, type Table } from 'apache-arrow'
import type { NamespaceClient } from '../../../src/core/namespace/client'
import type { TableId } from '../../../src/core/namespace/path'

/**
 * A value read straight from its Arrow buffers, never through JS numbers or Dates: 64-bit integers,
 * timestamps, times and durations as bigint in the column's unit, decimals as unscaled bigint,
 * dates as days, lists as arrays, structs as objects.
 */
export function exactAt(data: Data, i: number): unknown {
  if (!data.getValid(i)) return null
  const type = data.type as DataType
  const at = data.offset + i
  if (DataType.isDecimal(type)) {
    const stride = type.bitWidth / 32
    let n = 0n
    for (let w = stride - 1; w >= 0; w--) n = (n << 32n) | BigInt((data.values as Uint32Array)[at * stride + w]!)
    return BigInt.asIntN(type.bitWidth, n)
  }
  if (DataType.isList(type) || DataType.isMap(type)) {
    const offsets = data.valueOffsets as Int32Array
    const child = data.children[0]!
    return Array.from({ length: offsets[at + 1]! - offsets[at]! }, (_, k) => exactAt(child, offsets[at]! + k))
  }
  if (DataType.isFixedSizeList(type)) {
    const child = data.children[0]!
    return Array.from({ length: type.listSize }, (_, k) => exactAt(child, at * type.listSize + k))
  }
  if (DataType.isStruct(type)) {
    return Object.fromEntries(type.children.map((f, k) => [f.name, exactAt(data.children[k]!, at)]))
  }
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type) || DataType.isBool(type) || DataType.isBinary(type) || DataType.isDictionary(type)) {
    return makeVector(data).get(i)
  }
  const value = (data.values as ArrayLike<number | bigint>)[at]!
  if (typeof value === 'bigint') return value
  if (DataType.isFloat(type)) return makeVector(data).get(i)
  return Number(value)
}

/** Every row of a table with exact values, plus the first page's schema. */
export async function readExact(client: NamespaceClient, id: TableId, pageRows = 5000): Promise<{ table: Table; rows: Record<string, unknown>[] }> {
  const { rowCount } = await client.describeTable(id)
  const rows: Record<string, unknown>[] = []
  let first: Table | null = null
  for (let offset = 0; offset < Math.max(rowCount, 1); offset += pageRows) {
    const page = tableFromIPC(await client.readPage(id, { offset, limit: pageRows }))
    first ??= page
    for (const batch of page.batches) {
      for (let r = 0; r < batch.numRows; r++) {
        rows.push(Object.fromEntries(batch.schema.fields.map((f, c) => [f.name, exactAt(batch.data.children[c]!, r)])))
      }
    }
  }
  return { table: first!, rows }
}

/** `name: Type` of each column, as apache-arrow prints it. */
export function typesOf(table: Table): Record<string, string> {
  return Object.fromEntries(table.schema.fields.map((f) => [f.name, String(f.type)]))
}
