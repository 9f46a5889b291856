/**
 * A set of whole numbers in [0, 2^53), open addressing over one Float64Array: the vector-duplicate keys of a
 * profile (up to two million of them). A JS Set of such keys boxes each one (they pass 2^31) and rehashes as it
 * grows; on a 768-d column that cost about a quarter as much as summing the vectors, most of it in the collector.
 */
export class NumberSet {
  /** Slots hold key + 1, so 0 marks an empty one. */
  private slots = new Float64Array(1 << 16)
  private mask = (1 << 16) - 1
  private shift = 16
  private count = 0

  get size(): number {
    return this.count
  }

  has(key: number): boolean {
    const stored = key + 1
    for (let i = this.slotOf(key); ; i = (i + 1) & this.mask) {
      const s = this.slots[i]!
      if (s === 0) return false
      if (s === stored) return true
    }
  }

  /** Add `key`; true when it was new. */
  add(key: number): boolean {
    const stored = key + 1
    let i = this.slotOf(key)
    for (;;) {
      const s = this.slots[i]!
      if (s === 0) break
      if (s === stored) return false
      i = (i + 1) & this.mask
    }
    this.slots[i] = stored
    // Kept at most half full, so probes stay short.
    if (++this.count * 2 > this.slots.length) this.grow()
    return true
  }

  private slotOf(key: number): number {
    const low = key >>> 0
    const high = (key / 4294967296) | 0
    // Multiplicative hashing: the product's top bits depend on every bit of the key (its low bits would not).
    return Math.imul(low ^ Math.imul(high, 0x85ebca6b), 0x9e3779b1) >>> this.shift
  }

  private grow(): void {
    const old = this.slots
    this.slots = new Float64Array(old.length * 2)
    this.mask = this.slots.length - 1
    this.shift--
    for (const s of old) {
      if (s === 0) continue
      let i = this.slotOf(s - 1)
      while (this.slots[i] !== 0) i = (i + 1) & this.mask
      this.slots[i] = s
    }
  }
}
