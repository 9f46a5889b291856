import { DataType, makeData, type Data } from 'apache-arrow'
import { parseCsvCell } from '../infer'

/** Why a cell does not fit: not of the type, or a number whose leading zeros would be lost. */
export type CellProblem = 'type' | 'zeros'

const INT_RE = /^[-+]?\d{1,19}$/
const FLOAT_RE = /^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?|inf|infinity|nan)$/i
const TRUE_RE = /^true$/i
const FALSE_RE = /^false$/i
const INT64_MAX = 9223372036854775807n
const INT64_MIN = -9223372036854775808n
const TWO32 = 4294967296

function leadingZero(cell: string): boolean {
  const at = cell.charCodeAt(0) === 0x2d || cell.charCodeAt(0) === 0x2b ? 1 : 0
  if (cell.charCodeAt(at) !== 0x30) return false
  const next = cell.charCodeAt(at + 1)
  return next >= 0x30 && next <= 0x39
}

/**
 * One CSV column of a batch built straight into Arrow buffers (Int64, Float64, Bool, Utf8): the apache-arrow
 * builders and a BigInt per integer cost several times the parsing itself. Other types: null (the caller
 * builds them value by value). `fail(r, problem)` throws for the cell of row `r`.
 */
export function csvColumn(type: DataType, cellAt: (r: number) => string, length: number, guardZeros: boolean, fail: (r: number, problem: CellProblem) => never): Data | null {
  const isInt64 = DataType.isInt(type) && type.bitWidth === 64
  if (!isInt64 && !DataType.isFloat(type) && !DataType.isBool(type) && !DataType.isUtf8(type)) return null
  const validity = new Uint8Array((length + 7) >> 3)
  let nullCount = 0
  if (DataType.isUtf8(type)) {
    const strings = new Array<string>(length)
    for (let r = 0; r < length; r++) {
      const cell = cellAt(r)
      if (cell === '') {
        nullCount++
        strings[r] = ''
      } else {
        validity[r >> 3]! |= 1 << (r & 7)
        strings[r] = cell
      }
    }
    const joined = strings.join('')
    const bytes = Buffer.from(joined, 'utf8')
    const offsets = new Int32Array(length + 1)
    const ascii = bytes.length === joined.length
    let at = 0
    for (let r = 0; r < length; r++) {
      at += ascii ? strings[r]!.length : Buffer.byteLength(strings[r]!, 'utf8')
      offsets[r + 1] = at
    }
    const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    return makeData({ type: type as never, length, nullCount, nullBitmap: nullCount ? validity : null, valueOffsets: offsets, data } as never)
  }
  if (DataType.isBool(type)) {
    const values = new Uint8Array((length + 7) >> 3)
    for (let r = 0; r < length; r++) {
      const cell = cellAt(r)
      if (cell === '') {
        nullCount++
        continue
      }
      validity[r >> 3]! |= 1 << (r & 7)
      if (TRUE_RE.test(cell)) values[r >> 3]! |= 1 << (r & 7)
      else if (!FALSE_RE.test(cell)) fail(r, 'type')
    }
    return makeData({ type: type as never, length, nullCount, nullBitmap: nullCount ? validity : null, data: values } as never)
  }
  if (isInt64) {
    const values = new BigInt64Array(length)
    const words = new Int32Array(values.buffer)
    for (let r = 0; r < length; r++) {
      const cell = cellAt(r)
      if (cell === '') {
        nullCount++
        continue
      }
      if (!INT_RE.test(cell)) fail(r, 'type')
      if (guardZeros && leadingZero(cell)) fail(r, 'zeros')
      validity[r >> 3]! |= 1 << (r & 7)
      const n = Number(cell)
      if (Number.isSafeInteger(n)) {
        // Two 32-bit words, no BigInt: exact for every safe integer, negative ones too.
        const hi = Math.floor(n / TWO32)
        words[2 * r] = n - hi * TWO32
        words[2 * r + 1] = hi
      } else {
        const big = BigInt(cell)
        if (big > INT64_MAX || big < INT64_MIN) fail(r, 'type')
        values[r] = big
      }
    }
    return makeData({ type: type as never, length, nullCount, nullBitmap: nullCount ? validity : null, data: values } as never)
  }
  const values = (type as unknown as { precision: number }).precision === 2 ? new Float64Array(length) : null
  if (!values) return null
  for (let r = 0; r < length; r++) {
    const cell = cellAt(r)
    if (cell === '') {
      nullCount++
      continue
    }
    if (!FLOAT_RE.test(cell)) fail(r, 'type')
    if (guardZeros && leadingZero(cell)) fail(r, 'zeros')
    validity[r >> 3]! |= 1 << (r & 7)
    const v = Number(cell)
    values[r] = Number.isNaN(v) ? (parseCsvCell(cell, type) as number) : v
  }
  return makeData({ type: type as never, length, nullCount, nullBitmap: nullCount ? validity : null, data: values } as never)
}
