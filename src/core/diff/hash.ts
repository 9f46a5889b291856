import { DataType, type Vector } from 'apache-arrow'

/**
 * A 53-bit hash of a row's values, built column by column (two 32-bit FNV-style lanes). Two rows with the same
 * hash are taken as equal: a false "unchanged" needs a 1 in 2^53 collision between a row and its own old self.
 */
export class RowHashes {
  readonly a: Uint32Array
  readonly b: Uint32Array

  constructor(readonly rows: number) {
    this.a = new Uint32Array(rows).fill(0x811c9dc5)
    this.b = new Uint32Array(rows).fill(0x01000193)
  }

  /** Mix every row's value of `column` into its hash. */
  add(column: Vector): void {
    if (this.addNumbers(column)) return
    const { a, b } = this
    const mix = (row: number, word: number) => {
      a[row] = Math.imul(a[row]! ^ word, 0x01000193)
      b[row] = Math.imul(b[row]! ^ word, 0x5bd1e995) ^ (b[row]! >>> 15)
    }
    for (let row = 0; row < this.rows; row++) {
      const value: unknown = column.get(row)
      mixValue(value, (word) => mix(row, word))
    }
  }

  /**
   * Numbers without nulls (and fixed-size lists of them, as embedding vectors), read from their typed arrays: the
   * very words {@link mixValue} mixes for each value, so a row hashes alike on either path (one version's batch
   * may hold a null where the other's does not). False when the column is of another kind.
   */
  private addNumbers(column: Vector): boolean {
    if (column.nullCount > 0 || column.data.length !== 1 || column.length !== this.rows) return false
    const data = column.data[0]!
    const { a, b } = this
    const mix = (row: number, word: number) => {
      a[row] = Math.imul(a[row]! ^ word, 0x01000193)
      b[row] = Math.imul(b[row]! ^ word, 0x5bd1e995) ^ (b[row]! >>> 15)
    }
    if (DataType.isFloat(data.type) || (DataType.isInt(data.type) && data.type.bitWidth <= 32)) {
      const values = column.toArray() as Float64Array | Float32Array | Int32Array | Uint32Array | Int16Array | Uint16Array | Int8Array | Uint8Array
      if (!ArrayBuffer.isView(values) || values.length !== this.rows || DataType.isFloat(data.type) && data.type.precision === 0) return false
      for (let row = 0; row < this.rows; row++) {
        scratch[0] = values[row]!
        mix(row, words[0]!)
        mix(row, words[1]! ^ 0x1)
      }
      return true
    }
    if (DataType.isInt(data.type) && data.type.bitWidth === 64) {
      const values = column.toArray() as BigInt64Array | BigUint64Array
      if (!ArrayBuffer.isView(values) || values.length !== this.rows) return false
      const halves = new Uint32Array(values.buffer, values.byteOffset, values.length * 2)
      for (let row = 0; row < this.rows; row++) {
        mix(row, halves[2 * row]!)
        mix(row, halves[2 * row + 1]! ^ 0x2)
      }
      return true
    }
    if (DataType.isFixedSizeList(data.type)) {
      const child = data.children[0]
      // Slices (offsets) take the generic path: their child values need not start at the first row.
      if (!child || data.offset !== 0 || child.offset !== 0 || child.nullCount > 0 || !DataType.isFloat(child.type) || child.type.precision === 0) return false
      const size = data.type.listSize
      const values = child.values as Float32Array | Float64Array
      if (!ArrayBuffer.isView(values) || values.length < this.rows * size) return false
      for (let row = 0; row < this.rows; row++) {
        for (let k = row * size; k < (row + 1) * size; k++) {
          scratch[0] = values[k]!
          mix(row, words[0]!)
          mix(row, words[1]! ^ 0x1)
        }
        mix(row, size ^ 0x7)
      }
      return true
    }
    return false
  }

  /** The row's hash as one exact number. */
  get(row: number): number {
    return this.a[row]! * 2 ** 21 + (this.b[row]! >>> 11)
  }
}

const scratch = new Float64Array(1)
const words = new Uint32Array(scratch.buffer)

function mixValue(value: unknown, mix: (word: number) => void): void {
  if (value === null || value === undefined) return mix(0x9e3779b9)
  switch (typeof value) {
    case 'number':
      scratch[0] = value
      mix(words[0]!)
      return mix(words[1]! ^ 0x1)
    case 'bigint':
      mix(Number(BigInt.asUintN(32, value)))
      return mix(Number(BigInt.asUintN(32, value >> 32n)) ^ 0x2)
    case 'boolean':
      return mix(value ? 0x3 : 0x4)
    case 'string':
      for (let i = 0; i < value.length; i++) mix(value.charCodeAt(i))
      return mix(value.length ^ 0x5)
    default:
      break
  }
  if (value instanceof Date) return mixValue(value.getTime(), mix)
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
    for (let i = 0; i < bytes.length; i++) mix(bytes[i]!)
    return mix(bytes.length ^ 0x6)
  }
  if (typeof value === 'object' && value !== null && 'toArray' in value && typeof (value as { toArray: unknown }).toArray === 'function') {
    const items = (value as { toArray(): ArrayLike<unknown> }).toArray()
    for (let i = 0; i < items.length; i++) mixValue(items[i], mix)
    return mix(items.length ^ 0x7)
  }
  // Structs, maps: their JSON text (field order is the schema's, so equal rows give equal text).
  mixValue(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)), mix)
}
