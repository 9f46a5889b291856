import { Field, FixedSizeList, Float32, Float64, Int32, Int64, Uint8, makeVector, vectorFromArray, type DataType, type Vector } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { RowHashes } from '../../../src/core/diff/hash'

function hashes(column: Vector): number[] {
  const h = new RowHashes(column.length)
  h.add(column)
  return Array.from({ length: column.length }, (_, i) => h.get(i))
}

/** The column's values, then the same with a null after them: the null sends the whole column down the generic path. */
function bothPaths(values: unknown[], type: DataType): { typed: number[]; generic: number[] } {
  const typed = hashes(vectorFromArray(values, type))
  const generic = hashes(vectorFromArray([...values, null], type)).slice(0, values.length)
  return { typed, generic }
}

describe('row hashes', () => {
  it('hash a number alike from a typed array (no nulls) and value by value (a null in the batch)', () => {
    for (const [values, type] of [
      [[0, 1.5, -2.25, 1e300, Number.NaN], new Float64()],
      [[0, 1.5, -2.25, 3e38], new Float32()],
      [[0, 1, -1, 2 ** 31 - 1], new Int32()],
      [[0, 7, 255], new Uint8()],
      [[0n, 1n, -1n, 2n ** 62n, -(2n ** 40n) - 3n], new Int64()],
    ] as [unknown[], DataType][]) {
      const { typed, generic } = bothPaths(values, type)
      expect(typed).toEqual(generic)
      // Different values, different hashes (the hash is not a constant).
      expect(new Set(typed).size).toBe(values.length)
    }
  })

  it('hash a fixed-size list of floats (an embedding) alike on both paths', () => {
    const type = new FixedSizeList(3, new Field('item', new Float32(), true))
    const rows = [[1, 2, 3], [1, 2, 4], [0, 0, 0]].map((r) => Float32Array.from(r))
    const { typed, generic } = bothPaths(rows, type)
    expect(typed).toEqual(generic)
    expect(new Set(typed).size).toBe(3)
  })

  it('takes 64-bit integers from their typed array without BigInt per row', () => {
    const column = makeVector(BigInt64Array.from([5n, -5n]))
    expect(hashes(column)).toEqual(bothPaths([5n, -5n], new Int64()).generic)
  })
})
