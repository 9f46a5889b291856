import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * API-key check for every request: `x-api-key: <key>` or `Authorization: Bearer <key>`.
 * Keys are compared as SHA-256 digests with `timingSafeEqual`, against every key without stopping early,
 * so neither the length nor the prefix of a key leaks through timing.
 */
export class ApiKeys {
  private readonly digests: Buffer[]

  constructor(keys: readonly string[]) {
    const usable = keys.map((k) => k.trim()).filter((k) => k.length > 0)
    if (usable.length === 0) throw new Error('At least one API key is required (--api-key or CATALOG_API_KEY)')
    this.digests = usable.map(digest)
  }

  /** The presented credential of a request, if any. */
  static presented(headers: Record<string, string | string[] | undefined>): string | undefined {
    const apiKey = headers['x-api-key']
    if (typeof apiKey === 'string' && apiKey !== '') return apiKey
    const auth = headers.authorization
    if (typeof auth === 'string') {
      const m = /^Bearer\s+(.+)$/i.exec(auth.trim())
      if (m) return m[1]
    }
    return undefined
  }

  accepts(presented: string | undefined): boolean {
    const candidate = digest(presented ?? '')
    let ok = false
    for (const d of this.digests) ok = timingSafeEqual(d, candidate) || ok
    return ok && presented !== undefined
  }
}

function digest(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest()
}
