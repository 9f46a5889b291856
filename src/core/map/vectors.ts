import { DataType, makeVector, type Data, type Vector } from 'apache-arrow'

/** Why a row is left off the map. */
export type Skip = 'nan' | 'nulls' | 'wrongDimension'

/** A column a map can be made of: fixed-size or variable lists of floats. */
export function isVectorType(type: DataType): boolean {
  if (!DataType.isFixedSizeList(type) && !DataType.isList(type)) return false
  const item = (type.children[0]?.type ?? null) as DataType | null
  return item !== null && DataType.isFloat(item)
}

/**
 * Calls `row(values, start)` for each usable vector of an Arrow list column, in row order, with `values[start …
 * start + dimension)` its items; else `skip(reason)`. Fixed-size lists of Float32 are read straight from their
 * buffer (the 1M-row path); other lists item by item.
 */
export function eachVector(column: Vector, dimension: number, row: (values: ArrayLike<number>, start: number) => void, skip: (why: Skip) => void): void {
  for (const data of column.data as Data[]) {
    const child = data.children[0]
    const fast = DataType.isFixedSizeList(data.type) && child && child.values instanceof Float32Array && data.offset === 0 && child.offset === 0
    if (fast) {
      const size = (data.type as { listSize: number }).listSize
      const values = child.values as Float32Array
      for (let i = 0; i < data.length; i++) {
        if (data.nullCount > 0 && !data.getValid(i)) skip('nulls')
        else if (size !== dimension) skip('wrongDimension')
        else if (!finite(values, i * size, size)) skip('nan')
        else row(values, i * size)
      }
      continue
    }
    const vector = makeVector(data)
    for (let i = 0; i < vector.length; i++) {
      const item = vector.get(i) as Vector | null
      if (item === null || item === undefined) {
        skip('nulls')
        continue
      }
      const values = item.toArray() as ArrayLike<number>
      if (values.length !== dimension) skip('wrongDimension')
      else if (!finite(values, 0, dimension) || (item.nullCount ?? 0) > 0) skip('nan')
      else row(values, 0)
    }
  }
}

function finite(values: ArrayLike<number>, start: number, length: number): boolean {
  let sum = 0
  for (let k = start; k < start + length; k++) sum += values[k]! * 0
  // x * 0 is 0 for every finite x and NaN for NaN and ±Infinity: one pass, no branch per item.
  return sum === 0
}

/** The length most vectors of a column have (the map's dimension), from a sample of rows. */
export function commonLength(column: Vector): number | null {
  const counts = new Map<number, number>()
  for (let i = 0; i < column.length; i++) {
    const item = column.get(i) as { length: number } | null
    if (item) counts.set(item.length, (counts.get(item.length) ?? 0) + 1)
  }
  let best: number | null = null
  for (const [length, count] of counts) if (best === null || count > counts.get(best)!) best = length
  return best
}
