import { afterEach, describe, expect, it } from 'vitest'
import { NAN, NULL, PLACED, Projector } from '../../../src/core/map/projector'

/** The worker's projection against plain dot products: an odd dimension (the two-at-a-time loop's last item), a NaN row, a null row, a reused slot. */
describe('map projection worker', () => {
  let projector: Projector | null = null
  afterEach(async () => {
    await projector?.close()
    projector = null
  })

  it('projects each row onto both axes, marks NaN and null rows, and leaves the caller its values', async () => {
    const d = 5
    const a = Float32Array.from([1, 0, 2, 0, -1])
    const b = Float32Array.from([0, 1, 0, 3, 0.5])
    projector = new Projector({ a, b, shiftA: 1, shiftB: -2, dimension: d })
    const rows = 4
    const values = Float32Array.from({ length: rows * d }, (_, i) => (i % 7) - 3)
    values[1 * d + 4] = Number.NaN
    const valid = Uint8Array.from([0b1011]) // row 2 is null
    const expected = (r: number) => {
      let x = 0
      let y = 0
      for (let k = 0; k < d; k++) {
        x += values[r * d + k]! * a[k]!
        y += values[r * d + k]! * b[k]!
      }
      return [x - 1, y + 2]
    }
    for (let round = 0; round < 2; round++) {
      const { xy, kind } = await projector.project(values, rows, valid)
      expect(Array.from(kind)).toEqual([PLACED, NAN, NULL, PLACED])
      for (const r of [0, 3]) {
        expect(xy[r * 2]).toBeCloseTo(expected(r)[0]!, 4)
        expect(xy[r * 2 + 1]).toBeCloseTo(expected(r)[1]!, 4)
      }
    }
    // Copied into the worker's slot, not taken: the values stay readable here.
    expect(values.length).toBe(rows * d)
    expect(values[0]).toBe(-3)
  })
})
