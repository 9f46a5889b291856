import type { ClaimStore, StoredClaim } from './store'

/**
 * A claim store over an object store's HTTP API with conditional requests: create is a PUT with
 * `If-None-Match: *`, renew and remove carry `If-Match: <etag>` (GCS says the same with generations). 412 (precondition failed), 409 (another
 * conditional write of the key in flight) and 404 (gone) mean the claim was lost, never an error. The age is the
 * store's `Date` minus the object's `Last-Modified`, so no machine's clock matters. Each store signs its own requests.
 */
export abstract class HttpClaimStore implements ClaimStore {
  /** Send one signed request for the claim object `key` (relative to the catalog's prefix). */
  protected abstract send(method: string, key: string, headers: Record<string, string>, body?: string): Promise<Response>
  /** Headers every PUT of a claim needs beyond the conditions (Azure: the blob type). */
  protected abstract readonly putHeaders: Record<string, string>
  /** The store's own error code in a refusal, for the message. */
  protected abstract errorCode(response: Response, text: string): string
  /** The condition "only if absent". */
  protected createConditions(): Record<string, string> {
    return { 'if-none-match': '*' }
  }
  /** The condition "only if still at `tag`". */
  protected matchConditions(tag: string): Record<string, string> {
    return { 'if-match': tag }
  }
  /** An object's version tag in an answer. */
  protected tagOf(response: Response): string | null {
    return response.headers.get('etag')
  }

  async create(key: string, body: string): Promise<string | null> {
    const r = await this.send('PUT', key, { ...this.putHeaders, ...this.createConditions(), 'content-type': 'application/json' }, body)
    if (lost(r)) return null
    await this.expectOk(r, 'create')
    return this.tagOf(r)
  }

  async read(key: string): Promise<StoredClaim | null> {
    const r = await this.send('GET', key, {})
    if (r.status === 404) return null
    const body = await this.expectOk(r, 'read')
    const modified = Date.parse(r.headers.get('last-modified') ?? '')
    const now = Date.parse(r.headers.get('date') ?? '')
    return { tag: this.tagOf(r) ?? '', body, ageMs: Number.isFinite(modified) && Number.isFinite(now) ? Math.max(0, now - modified) : 0 }
  }

  async renew(key: string, tag: string, body: string): Promise<string | null> {
    const r = await this.send('PUT', key, { ...this.putHeaders, ...this.matchConditions(tag), 'content-type': 'application/json' }, body)
    if (lost(r)) return null
    await this.expectOk(r, 'renew')
    return this.tagOf(r)
  }

  async remove(key: string, tag: string): Promise<boolean> {
    const r = await this.send('DELETE', key, this.matchConditions(tag))
    if (lost(r)) return false
    await this.expectOk(r, 'remove')
    return true
  }

  private async expectOk(r: Response, what: string): Promise<string> {
    const text = await r.text()
    if (!r.ok) throw new Error(`The object store refused to ${what} a name claim (HTTP ${r.status} ${this.errorCode(r, text)})`.trim())
    return text
  }
}

const lost = (r: Response) => r.status === 409 || r.status === 412 || r.status === 404
