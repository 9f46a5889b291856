import { describe, expect, it } from 'vitest'
import { NumberSet } from '../../../src/core/profile/numberSet'

describe('NumberSet (the vector-duplicate keys)', () => {
  it('tells new keys from seen ones across growth, for 0 and keys up to 2^53', () => {
    const set = new NumberSet()
    const keys = [0, 1, 2 ** 31, 2 ** 32 + 5, 2 ** 53 - 1]
    for (let i = 0; i < 200_000; i++) keys.push(Math.floor(((i * 2654435761) % 2 ** 32) * 2 ** 21 + (i % 2 ** 21)))
    const distinct = new Set(keys)
    let added = 0
    for (const k of keys) if (set.add(k)) added++
    expect(added).toBe(distinct.size)
    expect(set.size).toBe(distinct.size)
    expect(keys.filter((k) => !set.has(k) || set.add(k))).toEqual([])
    expect(set.has(3)).toBe(distinct.has(3))
    expect(set.has(2 ** 52 + 7)).toBe(distinct.has(2 ** 52 + 7))
  })
})
