import { describe, expect, it } from 'vitest'
import { readAhead } from '../../../src/core/export/readAhead'

/** A source that records how far ahead of the consumer it was asked. */
function source(n: number, failAt?: number) {
  const log = { requested: 0, consumed: 0, maxAhead: 0, closed: false }
  async function* gen() {
    try {
      for (let i = 0; i < n; i++) {
        log.requested++
        log.maxAhead = Math.max(log.maxAhead, log.requested - log.consumed)
        if (i === failAt) throw new Error(`failed at ${i}`)
        yield i
      }
    } finally {
      log.closed = true
    }
  }
  return { log, items: gen() }
}

describe('readAhead', () => {
  it('yields every item in order, never more than `depth` ahead of the consumer', async () => {
    const { log, items } = source(50)
    const seen: number[] = []
    for await (const item of readAhead(items, 2)) {
      log.consumed++
      seen.push(item)
    }
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i))
    expect(log.maxAhead).toBeLessThanOrEqual(3)
    expect(log.closed).toBe(true)
  })

  it('passes a failure through in order, after the items before it', async () => {
    const { items } = source(10, 4)
    const seen: number[] = []
    await expect(
      (async () => {
        for await (const item of readAhead(items, 2)) seen.push(item)
      })(),
    ).rejects.toThrow('failed at 4')
    expect(seen).toEqual([0, 1, 2, 3])
  })

  it('closes the source when the consumer stops early', async () => {
    const { log, items } = source(100)
    for await (const item of readAhead(items, 2)) if (item === 3) break
    expect(log.closed).toBe(true)
    expect(log.requested).toBeLessThan(10)
  })
})
