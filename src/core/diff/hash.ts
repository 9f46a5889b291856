import type { Vector } from 'apache-arrow'

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
