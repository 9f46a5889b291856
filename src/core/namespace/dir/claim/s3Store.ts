import { bucketUrl, type S3Access } from '../../objectStore/s3'
import type { ObjectStoreLocation } from '../../objectStore/location'
import { amzDateOf, sha256Hex, signV4 } from '../../objectStore/sigv4'
import type { ClaimStore, StoredClaim } from './store'

/**
 * Claims as objects under the catalog's prefix in an S3 bucket: create is `PutObject` with `If-None-Match: *` (412,
 * or 409 while another conditional write of the key is in flight), renew and remove carry `If-Match: <etag>` (S3's
 * conditional writes and deletes). The age is the store's `Date` minus the object's `Last-Modified`.
 */
export class S3ClaimStore implements ClaimStore {
  constructor(
    private readonly access: S3Access,
    private readonly location: ObjectStoreLocation,
  ) {}

  async create(key: string, body: string): Promise<string | null> {
    const r = await this.request('PUT', key, { 'if-none-match': '*', 'content-type': 'application/json' }, body)
    if (r.status === 409 || r.status === 412) return null
    await expectOk(r, 'create')
    return r.headers.get('etag')
  }

  async read(key: string): Promise<StoredClaim | null> {
    const r = await this.request('GET', key, {})
    if (r.status === 404) return null
    const body = await expectOk(r, 'read')
    const modified = Date.parse(r.headers.get('last-modified') ?? '')
    const now = Date.parse(r.headers.get('date') ?? '')
    return { tag: r.headers.get('etag') ?? '', body, ageMs: Number.isFinite(modified) && Number.isFinite(now) ? Math.max(0, now - modified) : 0 }
  }

  async renew(key: string, tag: string, body: string): Promise<string | null> {
    const r = await this.request('PUT', key, { 'if-match': tag, 'content-type': 'application/json' }, body)
    if (r.status === 409 || r.status === 412 || r.status === 404) return null
    await expectOk(r, 'renew')
    return r.headers.get('etag')
  }

  async remove(key: string, tag: string): Promise<boolean> {
    const r = await this.request('DELETE', key, { 'if-match': tag })
    if (r.status === 409 || r.status === 412 || r.status === 404) return false
    await expectOk(r, 'remove')
    return true
  }

  private async request(method: string, key: string, extra: Record<string, string>, body?: string): Promise<Response> {
    const { endpoint, region, virtualHosted, signer } = this.access
    const base = bucketUrl(this.location.bucket, endpoint, region, virtualHosted)
    const name = [this.location.prefix, key].filter(Boolean).join('/')
    const url = new URL(`${base.href.replace(/\/$/, '')}/${name.split('/').map(encodeURIComponent).join('/')}`)
    const payload = body === undefined ? undefined : Buffer.from(body, 'utf8')
    const payloadHash = sha256Hex(body ?? '')
    let headers: Record<string, string> = { ...extra, 'x-amz-content-sha256': payloadHash }
    if (signer) {
      if (signer.token) headers['x-amz-security-token'] = signer.token
      headers = signV4({ method, url, headers, payloadHash, region, service: 's3', accessKeyId: signer.accessKeyId, secretAccessKey: signer.secretAccessKey, amzDate: amzDateOf(new Date()) })
      delete headers.host // fetch sets it from the URL (the signed value)
    }
    return fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) })
  }
}

async function expectOk(r: Response, what: string): Promise<string> {
  const text = await r.text()
  if (!r.ok) throw new Error(`The object store refused to ${what} a name claim (HTTP ${r.status} ${/<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? ''})`.trim())
  return text
}
