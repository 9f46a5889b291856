import { DataType, type Data, type RecordBatch } from 'apache-arrow'

/**
 * apache-arrow reads IPC buffers without checking them against the metadata; Lance (Rust) does,
 * and would fail mid-import with an engine message. Check each batch read from an Arrow file the
 * way arrow-rs validates arrays (buffer sizes, offsets in bounds and non-decreasing) so a damaged
 * file fails before its first chunk is written, with a message that says so.
 * Returns a description of the first problem, or null.
 */
export function batchProblem(batch: RecordBatch): string | null {
  const fields = batch.schema.fields
  for (let i = 0; i < fields.length; i++) {
    const data = batch.data.children[i]
    if (!data) return `column "${fields[i]!.name}" is missing`
    if (data.length < batch.numRows) return `column "${fields[i]!.name}" has ${data.length} values for ${batch.numRows} rows`
    const problem = dataProblem(data)
    if (problem) return `column "${fields[i]!.name}": ${problem}`
  }
  return null
}

function dataProblem(data: Data): string | null {
  const { type, length, offset } = data
  if (length < 0 || offset < 0) return 'negative length or offset'
  const end = offset + length
  if (data.nullCount > 0 && data.nullBitmap && data.nullBitmap.length * 8 < end) return 'its validity bitmap is too short'
  if (DataType.isNull(type)) return null
  if (DataType.isBool(type)) return data.values && data.values.length * 8 >= end ? null : 'its value buffer is too short'
  if (DataType.isUtf8(type) || DataType.isBinary(type) || DataType.isLargeUtf8(type) || DataType.isLargeBinary(type)) {
    return offsetsProblem(data.valueOffsets, offset, length, data.values?.length ?? 0)
  }
  if (DataType.isList(type) || DataType.isMap(type)) {
    const child = data.children[0]
    if (!child) return 'its list values are missing'
    return offsetsProblem(data.valueOffsets, offset, length, child.length) ?? dataProblem(child)
  }
  if (DataType.isFixedSizeList(type)) {
    const child = data.children[0]
    if (!child) return 'its list values are missing'
    if (child.length < length * type.listSize) return 'its list values are too short'
    return dataProblem(child)
  }
  if (DataType.isStruct(type)) {
    for (const child of data.children) {
      if (child.length < length) return 'a struct field is too short'
      const problem = dataProblem(child)
      if (problem) return problem
    }
    return null
  }
  if (DataType.isDictionary(type)) {
    const dictionary = data.dictionary
    if (!data.values || data.values.length < length) return 'its index buffer is too short'
    if (dictionary) {
      const size = dictionary.length
      for (let i = 0; i < length; i++) {
        const key = Number(data.values[i])
        const bit = i + offset
        if (data.nullCount > 0 && data.nullBitmap && !((data.nullBitmap[bit >> 3]! >> (bit & 7)) & 1)) continue
        if (key < 0 || key >= size) return `dictionary index ${key} is out of range (${size} values)`
      }
    }
    return null
  }
  if (DataType.isUnion(type)) return null
  // Fixed-width primitives: the typed array (sliced to the array by apache-arrow) must cover the values.
  if (data.values) {
    const stride = data.stride || 1
    if (data.values.length < length * stride) return 'its value buffer is too short'
  }
  return null
}

function offsetsProblem(offsets: ArrayLike<number | bigint> | undefined, offset: number, length: number, valuesLength: number): string | null {
  if (length === 0) return null
  // apache-arrow slices offset buffers to the array (offset applied), so index from 0.
  if (!offsets || offsets.length < length + 1) return 'its offsets buffer is too short'
  let previous = Number(offsets[0])
  if (previous < 0) return 'a negative offset'
  for (let i = 1; i <= length; i++) {
    const current = Number(offsets[i])
    if (current < previous) return `offsets decrease at position ${i + offset}`
    previous = current
  }
  if (previous > valuesLength) return `offsets point past the end of the values (${previous} > ${valuesLength})`
  return null
}
