import { DataType, DateUnit, Precision, makeVector, type Data, type Field, type Vector } from 'apache-arrow'
import { PROFILE_EXACT_DISTINCT_FLOOR, PROFILE_EXACT_DISTINCT_LIMIT, PROFILE_EXACT_DISTINCT_TOTAL, PROFILE_HISTOGRAM_BINS, PROFILE_TOP_VALUES, type ColumnKind, type ColumnProfile, type NumberStats } from '../../contract'
import { formatType, vectorDimension } from '../arrow'
import { DistinctCounter } from './distinct'
import { StreamingHistogram } from './histogram'
import { NumberSet } from './numberSet'
import { scanVectors } from './vectorScan'

const DAY_MS = 86_400_000
/** Vectors remembered to find exact duplicates (about 40 bytes each); past this, duplicates are not counted. */
const DUPLICATE_LIMIT = 2_000_000

/** A vector's 53-bit key for exact duplicates: 32 bits of its hash's h word and 21 of its g word (vectorScan.ts). */
function keyOf(hashH: number, hashG: number): number {
  return (hashH >>> 0) * 0x200000 + ((hashG >>> 0) & 0x1fffff)
}

/** Whether the `d` items from `start` are all zero. */
function isZero(items: Float64Array, start: number, d: number): boolean {
  for (let k = start; k < start + d; k++) if (items[k] !== 0) return false
  return true
}

/** What a profile says about a column of this type (binary and nested columns: nulls only, and they are not read). */
export function columnKind(type: DataType): ColumnKind {
  if (DataType.isInt(type)) return 'integer'
  if (DataType.isFloat(type)) return 'number'
  if (DataType.isDate(type)) return 'date'
  if (DataType.isTimestamp(type)) return 'timestamp'
  if (DataType.isUtf8(type) || DataType.isLargeUtf8(type)) return 'text'
  if (DataType.isBool(type)) return 'boolean'
  if (vectorDimension(type) !== undefined) return 'vector'
  if (DataType.isList(type) || DataType.isFixedSizeList(type)) return 'list'
  return 'other'
}

/** Whether a profile counts the distinct values of a column of this kind. */
export function countsDistinct(kind: ColumnKind): boolean {
  return kind === 'integer' || kind === 'number' || kind === 'date' || kind === 'timestamp' || kind === 'text' || kind === 'boolean'
}

/**
 * Distinct values counted exactly per column when `columns` are counted: the limit, less on a wide table so the
 * exact counts of one scan hold at most the total (a value kept costs about 40–80 bytes), never below the floor.
 */
export function exactDistinctLimit(columns: number): number {
  return Math.max(PROFILE_EXACT_DISTINCT_FLOOR, Math.min(PROFILE_EXACT_DISTINCT_LIMIT, Math.floor(PROFILE_EXACT_DISTINCT_TOTAL / Math.max(1, columns))))
}

/** Columns whose values the scan reads (the others would cost reading their bytes for nothing shown). */
export function isScanned(kind: ColumnKind): boolean {
  return kind !== 'other'
}

const ascii = new TextDecoder('utf-8')

/** A chunk read from its buffers directly: no nulls, not a slice, and (numbers) items that are plain JS numbers or bigints. */
function isPlain(data: Data): boolean {
  if (data.offset !== 0 || data.nullCount !== 0) return false
  if (DataType.isFloat(data.type) && data.type.precision === Precision.HALF) return false
  if (DataType.isFixedSizeList(data.type)) {
    const child = data.children[0]
    return !!child && child.offset === 0 && child.nullCount === 0 && DataType.isFloat(child.type) && child.type.precision !== Precision.HALF
  }
  return ArrayBuffer.isView(data.values)
}

class Moments {
  count = 0
  min = Infinity
  max = -Infinity
  sum = 0

  add(v: number): void {
    this.count++
    if (v < this.min) this.min = v
    if (v > this.max) this.max = v
    this.sum += v
  }

  result(): NumberStats | undefined {
    return this.count === 0 ? undefined : { min: this.min, max: this.max, mean: this.sum / this.count }
  }
}

/** One column's statistics, fed batch by batch. */
export class ColumnAccumulator {
  readonly kind: ColumnKind
  private nulls = 0
  private nans = 0
  private readonly moments = new Moments()
  private readonly lengths = new Moments()
  private readonly distinct: DistinctCounter | null
  private readonly histogram: StreamingHistogram | null
  private readonly dimension: number | undefined
  private nanVectors = 0
  private zeroVectors = 0
  private seenVectors: NumberSet | null = new NumberSet()
  private duplicateVectors = 0
  private readonly norms = new Moments()
  private readonly normHistogram: StreamingHistogram | null
  /** Date32 values are counted in whole days so bars have day edges. */
  private readonly days: boolean

  get name(): string {
    return this.field.name
  }

  constructor(
    private readonly field: Field,
    distinctLimit = PROFILE_EXACT_DISTINCT_LIMIT,
  ) {
    const type = field.type
    this.kind = columnKind(type)
    const k = this.kind
    this.days = DataType.isDate(type) && type.unit === DateUnit.DAY
    this.distinct = countsDistinct(k) ? new DistinctCounter(distinctLimit, k === 'text' || k === 'boolean') : null
    this.histogram = k === 'integer' || k === 'date' ? new StreamingHistogram(PROFILE_HISTOGRAM_BINS, true) : k === 'number' || k === 'timestamp' ? new StreamingHistogram(PROFILE_HISTOGRAM_BINS, false) : null
    this.dimension = vectorDimension(type)
    this.normHistogram = k === 'vector' ? new StreamingHistogram(PROFILE_HISTOGRAM_BINS, false) : null
  }

  add(column: Vector): void {
    // The common case, read straight from the Arrow buffers: numbers and vectors in chunks without nulls.
    if ((this.kind === 'integer' || this.kind === 'number' || this.kind === 'vector') && column.data.every(isPlain)) {
      for (const data of column.data) {
        if (this.kind === 'vector') this.addVectors(data.children[0]!.values as Float32Array | Float64Array, data.length)
        else if (data.values instanceof BigInt64Array || data.values instanceof BigUint64Array) this.addInt64s(data.values, data.length)
        else {
          const values = data.values as ArrayLike<number>
          for (let i = 0; i < data.length; i++) this.addNumber(values[i]!)
        }
      }
      return
    }
    if (this.kind === 'text' && column.data.every((d) => d.offset === 0 && DataType.isUtf8(d.type))) {
      for (const data of column.data) if (!this.addAsciiText(data)) this.addSlowly(makeVector(data))
      return
    }
    this.addSlowly(column)
  }

  /**
   * 64-bit integers read as two 32-bit words: reading a BigInt64Array item makes a BigInt per value, which
   * cost more than the statistics themselves. Values past 2^53 still go through their exact BigInt.
   */
  private addInt64s(values: BigInt64Array | BigUint64Array, length: number): void {
    // Arrow's buffers are 8-byte aligned, so this view needs no copy.
    const words = new Int32Array(values.buffer, values.byteOffset, length * 2)
    const signed = values instanceof BigInt64Array
    for (let i = 0; i < length; i++) {
      const high = signed ? words[2 * i + 1]! : words[2 * i + 1]! >>> 0
      const v = high * 4294967296 + (words[2 * i]! >>> 0)
      if (Number.isSafeInteger(v)) this.addNumber(v)
      else this.addNumber(values[i]!)
    }
  }

  /**
   * `rows` vectors laid end to end in `items`, without a view or an array per row: their norms (zero only for
   * an all-zero vector, NaN for one with a NaN item) and their keys for duplicates, from one pass per vector
   * (vectorScan.ts; float32 through WebAssembly SIMD).
   */
  private addVectors(items: Float32Array | Float64Array, rows: number): void {
    const d = this.dimension!
    scanVectors(items, rows, d, (squares, hashH, hashG, row) => {
      // A float64 vector of items below 1e-154 has squares that round to zero: only its items can say.
      const zero = squares === 0 && (items instanceof Float32Array || isZero(items, row * d, d))
      if (this.countVector(squares, zero) && this.seenVectors) this.countDuplicate(keyOf(hashH, hashG))
    })
  }

  /**
   * A Utf8 chunk whose bytes are all ASCII, decoded once and cut by its offsets (no decoder call per value);
   * false (nothing counted) for a chunk with other characters.
   */
  private addAsciiText(data: Data): boolean {
    const bytes = data.values as Uint8Array
    const offsets = data.valueOffsets as Int32Array
    const start = offsets[0]!
    const end = offsets[data.length]!
    const text = ascii.decode(bytes.subarray(start, end))
    if (text.length !== end - start) return false
    const bitmap = data.nullCount > 0 ? data.nullBitmap : undefined
    for (let i = 0; i < data.length; i++) {
      if (bitmap && !((bitmap[i >> 3]! >> (i & 7)) & 1)) {
        this.nulls++
        continue
      }
      const value = text.slice(offsets[i]! - start, offsets[i + 1]! - start)
      this.lengths.add(value.length)
      this.distinct!.add(value)
    }
    return true
  }

  private addSlowly(column: Vector): void {
    const n = column.length
    const kind = this.kind
    for (let i = 0; i < n; i++) {
      if (!column.isValid(i)) {
        this.nulls++
        continue
      }
      if (kind === 'other') continue
      const value: unknown = column.get(i)
      if (value === null || value === undefined) {
        this.nulls++
        continue
      }
      switch (kind) {
        case 'integer':
        case 'number':
        case 'date':
        case 'timestamp':
          this.addNumber(typeof value === 'bigint' || typeof value === 'number' ? value : value instanceof Date ? value.getTime() : Number(value))
          break
        case 'text': {
          const text = String(value)
          this.lengths.add(text.length)
          this.distinct!.add(text)
          break
        }
        case 'boolean':
          this.distinct!.add(value ? 'true' : 'false')
          break
        case 'list':
          this.lengths.add((value as { length: number }).length)
          break
        case 'vector':
          this.addVector((value as Vector).toArray() as ArrayLike<number>)
          break
      }
    }
  }

  private addNumber(raw: number | bigint): void {
    const v = typeof raw === 'bigint' ? Number(raw) : raw
    if (Number.isNaN(v)) {
      this.nans++
      return
    }
    this.moments.add(v)
    // Int64 values past 2^53 are told apart by their exact value; every other value by its number.
    this.distinct!.add(typeof raw === 'bigint' && !Number.isSafeInteger(v) ? raw : v)
    this.histogram!.add(this.days ? Math.round(v / DAY_MS) : v)
  }

  /** One vector read through Arrow (a chunk with nulls): the same sums and key as {@link addVectors} gives it. */
  private addVector(items: ArrayLike<number>): void {
    this.addVectors(items instanceof Float32Array || items instanceof Float64Array ? items : Float64Array.from(items), 1)
  }

  /** One vector's norm (or its NaN, and then nothing else is counted for it): false for a NaN vector. */
  private countVector(squares: number, zero: boolean): boolean {
    if (Number.isNaN(squares)) {
      this.nanVectors++
      return false
    }
    if (zero) this.zeroVectors++
    const norm = Math.sqrt(squares)
    this.norms.add(norm)
    this.normHistogram!.add(norm)
    return true
  }

  /** Exact duplicates, told apart by a key of the vector's values, until there are too many to keep. */
  private countDuplicate(key: number): void {
    if (!this.seenVectors) return
    if (this.seenVectors.size < DUPLICATE_LIMIT) {
      if (!this.seenVectors.add(key)) this.duplicateVectors++
    } else if (this.seenVectors.has(key)) this.duplicateVectors++
    else this.seenVectors = null
  }

  result(): ColumnProfile {
    const profile: ColumnProfile = { name: this.field.name, type: formatType(this.field.type), kind: this.kind, nulls: isScanned(this.kind) ? this.nulls : null }
    if (this.distinct) profile.distinct = this.distinct.distinct()
    const stats = this.moments.result()
    if (stats) profile.stats = stats
    if (this.kind === 'number') profile.nans = this.nans
    if (this.histogram) {
      const bins = this.histogram.result()
      profile.histogram = this.days ? bins.map((b) => ({ lo: b.lo * DAY_MS, hi: b.hi * DAY_MS, count: b.count })) : bins
    }
    if (this.kind === 'text' || this.kind === 'boolean') profile.top = this.distinct!.topValues(PROFILE_TOP_VALUES)
    const lengths = this.lengths.result()
    if (lengths) profile.lengths = lengths
    if (this.kind === 'vector') {
      profile.vector = { dimension: this.dimension!, nanVectors: this.nanVectors, zeroVectors: this.zeroVectors, duplicateVectors: this.seenVectors ? this.duplicateVectors : null }
      const norms = this.norms.result()
      if (norms) {
        profile.vector.norms = norms
        profile.vector.normHistogram = this.normHistogram!.result()
      }
    }
    return profile
  }
}
