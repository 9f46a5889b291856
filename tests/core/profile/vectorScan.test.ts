import { Field, FixedSizeList, Float64, makeData, makeVector, type Vector } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import type { ColumnProfile } from '../../../src/contract'
import { float32Vectors, seededRandom, withNulls } from '../../../src/core/arrow'
import { ColumnAccumulator } from '../../../src/core/profile/columns'
import { scanVectors, vectorScanEngine, wordsOf } from '../../../src/core/profile/vectorScan'
/** Every vector's [squares, hash's h word, hash's g word] from one engine. */
function scanAll(items: Float32Array | Float64Array, rows: number, d: number, engine: 'wasm' | 'js'): Array<[number, number, number]> {
  const out: Array<[number, number, number]> = []
  scanVectors(items, rows, d, (squares, hashH, hashG, row) => {
    expect(row).toBe(out.length)
    out.push([squares, hashH, hashG])
  }, engine)
  return out
}

/** A vector's whole 64-bit hash, as a string of its two words. */
const hashOf = (items: Float32Array, engine: 'wasm' | 'js' = 'wasm') => {
  const [, h, g] = scanAll(items, 1, items.length, engine)[0]!
  return `${h >>> 0}:${g >>> 0}`
}

/** Random items with the awkward values mixed in: NaN, ±Infinity, −0, subnormals, huge and tiny numbers. */
function awkwardItems(count: number, seed: number): Float32Array {
  const random = seededRandom(seed)
  const special = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e-45, -3e-39, 3e38, 1e-20]
  return Float32Array.from({ length: count }, () => (random() < 0.002 ? special[Math.floor(random() * special.length)]! : (random() * 2 - 1) * 10 ** Math.floor(random() * 6 - 3)))
}

/** The vector profile of batches added one by one, as the scan adds each batch's column. */
function vectorProfile(...batches: Vector[]): NonNullable<ColumnProfile['vector']> {
  const accumulator = new ColumnAccumulator(new Field('vec', batches[0]!.type, true))
  for (const column of batches) accumulator.add(column)
  return accumulator.result().vector!
}

function float64Vectors(values: Float64Array, d: number): Vector {
  const type = new FixedSizeList(d, new Field('item', new Float64(), true))
  return makeVector(makeData({ type, length: values.length / d, nullCount: 0, child: makeData({ type: new Float64(), length: values.length, data: values }) }))
}

describe('the vector scan (the Summary’s loop over a vector column)', () => {
  it('runs in WebAssembly SIMD here', () => {
    expect(vectorScanEngine()).toBe('wasm')
  })

  it('gives the same sums and hashes, bit for bit, in WebAssembly and in JavaScript', () => {
    // Dimensions around the kernel's blocks of 16, one that fills several of its 256 KiB chunks, and none at all.
    for (const [d, rows] of [[0, 3], [1, 40], [3, 50], [15, 30], [16, 30], [17, 30], [31, 20], [768, 300], [70_000, 3]] as const) {
      const items = awkwardItems(d * rows, d + 1)
      const wasm = scanAll(items, rows, d, 'wasm')
      const js = scanAll(items, rows, d, 'js')
      expect(wasm.length).toBe(rows)
      for (let r = 0; r < rows; r++) {
        expect(Object.is(wasm[r]![0], js[r]![0]) || (Number.isNaN(wasm[r]![0]) && Number.isNaN(js[r]![0])), `d ${d}, row ${r}: ${wasm[r]![0]} vs ${js[r]![0]}`).toBe(true)
        expect(wasm[r]!.slice(1), `d ${d}, row ${r}`).toEqual(js[r]!.slice(1))
      }
    }
  })

  it('sums the squares of the items (NaN for a NaN item, zero only for a zero vector)', () => {
    const d = 37
    const items = awkwardItems(d * 20, 7).map((x) => (Number.isFinite(x) ? x : 0.5))
    items[5 * d + 3] = Number.NaN
    items.fill(0, 9 * d, 10 * d)
    items[9 * d + 30] = -0
    const sums = scanAll(items, 20, d, 'wasm')
    for (let r = 0; r < 20; r++) {
      let plain = 0
      for (let k = r * d; k < (r + 1) * d; k++) plain += items[k]! * items[k]!
      if (r === 5) expect(sums[r]![0]).toBeNaN()
      else if (r === 9) expect(sums[r]![0]).toBe(0)
      else expect(Math.abs(sums[r]![0] - plain)).toBeLessThanOrEqual(plain * 1e-12)
    }
  })

  it('hashes every bit: one changed bit of any item, two flipped signs or two swapped items change the hash', () => {
    const d = 768
    const base = awkwardItems(d, 99).map((x) => (Number.isFinite(x) && x !== 0 ? x : 1))
    const baseHash = hashOf(base)
    const seen = new Set<string>([baseHash])
    const seenH = new Set<number>()
    const seenG = new Set<number>()
    // Every bit of items in every lane and in the tail (of a 768 + 5 vector below).
    for (const k of [0, 1, 15, 16, 17, 100, 383, 767]) {
      for (let bit = 0; bit < 32; bit++) {
        const changed = base.slice()
        wordsOf(changed)[k]! ^= 1 << bit
        const hash = hashOf(changed)
        seen.add(hash)
        seenH.add(Number(hash.split(':')[0]))
        seenG.add(Number(hash.split(':')[1]))
      }
    }
    // Each word of the hash alone already tells all of them apart.
    expect(seen.size).toBe(1 + 8 * 32)
    expect(seenH.size).toBe(8 * 32)
    expect(seenG.size).toBe(8 * 32)
    // Two signs flipped in the same lane (items 16 apart) leave the squares equal: only the hash tells them apart.
    for (const [i, j] of [[0, 16], [3, 19], [100, 116], [0, 752]] as Array<[number, number]>) {
      const flipped = base.slice()
      flipped[i] = -flipped[i]!
      flipped[j] = -flipped[j]!
      expect(hashOf(flipped), `items ${i} and ${j}`).not.toBe(baseHash)
      expect(scanAll(flipped, 1, d, 'wasm')[0]![0]).toBe(scanAll(base, 1, d, 'wasm')[0]![0])
    }
    const swapped = base.slice()
    ;[swapped[2], swapped[3]] = [swapped[3]!, swapped[2]!]
    expect(hashOf(swapped)).not.toBe(baseHash)
    // The items past the last whole block of 16 count too.
    const longer = awkwardItems(d + 5, 5).map((x) => (Number.isFinite(x) ? x : 1))
    const tail = longer.slice()
    tail[d + 4] = -tail[d + 4]! || 1
    expect(hashOf(tail)).not.toBe(hashOf(longer))
  })
})

describe('exact duplicate vectors in a profile', () => {
  it('are not vectors that differ only by two items’ signs (their squares are equal)', () => {
    for (const d of [4, 8, 768]) {
      const items = new Float32Array(2 * d).map((_, k) => 1 + (k % d))
      items[d] = -items[d]!
      items[d + (d >= 32 ? 16 : 2)] = -items[d + (d >= 32 ? 16 : 2)]!
      expect(vectorProfile(float32Vectors(items, d)).duplicateVectors, `d ${d}`).toBe(0)
    }
  })

  it('are not 200,000 different 0/1 vectors of the same norm (with a key of 32 hash bits, some of them would match)', () => {
    // Every vector has 32 ones among 64 items, so all share one sum of squares: only the hash tells them apart.
    const d = 64
    const rows = 200_000
    const random = seededRandom(2026)
    const items = new Float32Array(rows * d)
    const patterns = new Set<string>()
    const order = Array.from({ length: d }, (_, k) => k)
    for (let r = 0; r < rows; r++) {
      for (let k = d - 1; k > 0; k--) {
        const j = Math.floor(random() * (k + 1))
        ;[order[k], order[j]] = [order[j]!, order[k]!]
      }
      for (let k = 0; k < d / 2; k++) items[r * d + order[k]!] = 1
      patterns.add(items.subarray(r * d, (r + 1) * d).join(''))
    }
    const profile = vectorProfile(float32Vectors(items, d))
    expect(profile.norms!.min).toBe(Math.sqrt(32))
    expect(profile.norms!.max).toBe(Math.sqrt(32))
    expect(profile.duplicateVectors).toBe(rows - patterns.size)
  })

  it('are found across batches read two ways (one with nulls, read through Arrow; one read from its buffers)', () => {
    const d = 20
    const row = Float32Array.from({ length: d }, (_, k) => k * 0.5 - 3)
    const first = new Float32Array(3 * d)
    first.set(row, 0)
    first.set(row.map((x) => x + 1), d)
    const second = new Float32Array(2 * d)
    second.set(row, 0)
    second.set(row.map((x) => x + 2), d)
    // The first batch has a null (its third row), so it is read row by row; the second from its buffers.
    const profile = vectorProfile(withNulls(float32Vectors(first, d), (r) => r !== 2), float32Vectors(second, d))
    expect(profile.duplicateVectors).toBe(1)
    expect(profile.zeroVectors).toBe(0)
  })

  it('hold for float64 vectors too, and a float64 vector too small to square is still not a zero vector', () => {
    const d = 24
    const values = new Float64Array(4 * d).map((_, k) => (k % d) + 0.25)
    values.copyWithin(d, 0, d) // row 1 = row 0
    values[2 * d] = -values[2 * d]!
    values[2 * d + 16] = -values[2 * d + 16]! // row 2 = row 0 with two signs flipped
    values.fill(1e-170, 3 * d, 4 * d) // row 3: every square underflows to 0
    const profile = vectorProfile(float64Vectors(values, d))
    expect(profile.duplicateVectors).toBe(1)
    expect(profile.zeroVectors).toBe(0)
    expect(profile.norms!.min).toBe(0)
  })

  it('a float32 column with NaN and zero vectors: counted as such, in both engines alike', () => {
    const d = 16
    const items = new Float32Array(4 * d).fill(0.5)
    items[d + 3] = Number.NaN
    items.fill(0, 2 * d, 3 * d)
    const profile = vectorProfile(float32Vectors(items, d))
    expect(profile).toMatchObject({ dimension: d, nanVectors: 1, zeroVectors: 1, duplicateVectors: 1 })
    expect(scanAll(items, 4, d, 'js')).toEqual(scanAll(items, 4, d, 'wasm'))
  })
})
