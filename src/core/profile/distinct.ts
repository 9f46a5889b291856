/** Registers of the estimate (2^12: a standard error of about 1.6 %). */
const P = 12
const M = 1 << P

/** A 32-bit hash of a string (FNV-1a, then murmur3's finaliser to spread the bits). */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

const scratch = new Float64Array(1)
const scratchWords = new Uint32Array(scratch.buffer)

/** A 32-bit hash of a number's bits (no string made: numbers are the common case). */
function hashNumber(value: number): number {
  scratch[0] = value === 0 ? 0 : value
  let h = Math.imul(scratchWords[0]! ^ 0x9e3779b9, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h ^ scratchWords[1]!, 0xc2b2ae35)
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  return h >>> 0
}

/** HyperLogLog: the number of distinct values of a stream in fixed memory, estimated. */
export class DistinctEstimate {
  private readonly registers = new Uint8Array(M)

  add(key: unknown): void {
    this.addHash(typeof key === 'number' ? hashNumber(key) : hash(String(key)))
  }

  private addHash(h: number): void {
    const index = h >>> (32 - P)
    const rest = (h << P) >>> 0
    const rank = rest === 0 ? 32 - P + 1 : Math.clz32(rest) + 1
    if (rank > this.registers[index]!) this.registers[index] = rank
  }

  estimate(): number {
    let sum = 0
    let zeros = 0
    for (const r of this.registers) {
      sum += 2 ** -r
      if (r === 0) zeros++
    }
    const alpha = 0.7213 / (1 + 1.079 / M)
    const raw = (alpha * M * M) / sum
    // Small ranges: linear counting is the better estimate.
    if (raw <= 2.5 * M && zeros > 0) return Math.round(M * Math.log(M / zeros))
    return Math.round(raw)
  }
}

/**
 * Distinct values counted exactly up to `limit`, then estimated (the values seen so far seed the estimate).
 * With `counts`, it also keeps how often each value occurs (top values); past the limit only the most
 * frequent half is kept, so those counts become lower bounds.
 */
export class DistinctCounter {
  private exactValues: Map<unknown, number> | null = new Map()
  private estimator: DistinctEstimate | null = null
  private top: Map<string, number> | null
  private topExact = true

  constructor(
    private readonly limit: number,
    countValues: boolean,
  ) {
    this.top = countValues ? new Map() : null
  }

  add(value: unknown): void {
    if (this.exactValues) {
      this.exactValues.set(value, (this.exactValues.get(value) ?? 0) + 1)
      if (this.exactValues.size > this.limit) {
        this.estimator = new DistinctEstimate()
        for (const key of this.exactValues.keys()) this.estimator.add(key)
        if (this.top) this.top = new Map([...this.exactValues].map(([k, c]) => [String(k), c]))
        this.exactValues = null
        this.prune()
      }
      return
    }
    this.estimator!.add(value)
    if (this.top) {
      const key = String(value)
      this.top.set(key, (this.top.get(key) ?? 0) + 1)
      if (this.top.size > 2 * this.limit) this.prune()
    }
  }

  /**
   * Keep the most frequent half of the limit. What a stable sort by count would keep, found without sorting:
   * a unique column prunes every ~15,000 values, and sorting 20,000 entries each time was a third of its cost.
   * The kept count is the `keep`-th largest (counts are few distinct numbers: counted per count); entries above
   * it are kept, and entries at it in the order they came, until `keep` are.
   */
  private prune(): void {
    const top = this.top
    if (!top) return
    this.topExact = false
    const keep = Math.floor(this.limit / 2)
    if (top.size <= keep) return
    const perCount = new Map<number, number>()
    for (const c of top.values()) perCount.set(c, (perCount.get(c) ?? 0) + 1)
    const counts = [...perCount.keys()].sort((a, b) => b - a)
    let threshold = 0
    let above = 0
    for (const c of counts) {
      const n = perCount.get(c)!
      if (above + n >= keep) {
        threshold = c
        break
      }
      above += n
    }
    let atThreshold = keep - above
    const kept = new Map<string, number>()
    for (const [value, c] of top) {
      if (c > threshold) kept.set(value, c)
      else if (c === threshold && atThreshold > 0) {
        kept.set(value, c)
        atThreshold--
      }
    }
    this.top = kept
  }

  distinct(): { count: number; exact: boolean } {
    return this.exactValues ? { count: this.exactValues.size, exact: true } : { count: this.estimator!.estimate(), exact: false }
  }

  topValues(n: number): { values: { value: string; count: number }[]; exact: boolean } {
    const source: [string, number][] = this.exactValues ? [...this.exactValues].map(([k, c]) => [String(k), c]) : [...(this.top ?? [])]
    const values = source
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, n)
      .map(([value, count]) => ({ value, count }))
    return { values, exact: this.topExact }
  }
}
