import { createHmac } from 'node:crypto'
import type { AzureAccess } from '../../objectStore/azure'
import type { ObjectStoreLocation } from '../../objectStore/location'
import type { ClaimStore, StoredClaim } from './store'

const API_VERSION = '2021-12-02'

/**
 * Claims as block blobs under the catalog's prefix in an Azure container: create is `Put Blob` with
 * `If-None-Match: *` (412 when it exists), renew and remove carry `If-Match: <etag>`. The age is the store's
 * `Date` minus the blob's `Last-Modified`, so no machine's clock matters.
 */
export class AzureClaimStore implements ClaimStore {
  constructor(
    private readonly access: AzureAccess,
    private readonly location: ObjectStoreLocation,
  ) {}

  async create(key: string, body: string): Promise<string | null> {
    const r = await this.request('PUT', key, { 'if-none-match': '*', 'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/json' }, body)
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
    const r = await this.request('PUT', key, { 'if-match': tag, 'x-ms-blob-type': 'BlockBlob', 'content-type': 'application/json' }, body)
    if (r.status === 412 || r.status === 404) return null
    await expectOk(r, 'renew')
    return r.headers.get('etag')
  }

  async remove(key: string, tag: string): Promise<boolean> {
    const r = await this.request('DELETE', key, { 'if-match': tag })
    if (r.status === 412 || r.status === 404) return false
    await expectOk(r, 'remove')
    return true
  }

  private async request(method: string, key: string, extra: Record<string, string>, body?: string): Promise<Response> {
    const { endpoint, account, credential } = this.access
    const name = [this.location.prefix, key].filter(Boolean).join('/')
    const url = new URL(`${endpoint}/${encodeURIComponent(this.location.bucket)}/${name.split('/').map(encodeURIComponent).join('/')}`)
    const payload = body === undefined ? undefined : Buffer.from(body, 'utf8')
    const headers: Record<string, string> = { ...extra, 'x-ms-date': new Date().toUTCString(), 'x-ms-version': API_VERSION }
    if (payload) headers['content-length'] = String(payload.byteLength)
    if (credential.kind === 'key') headers.authorization = `SharedKey ${account}:${signature(method, account, credential.key, url, headers)}`
    else if (credential.kind === 'token') headers.authorization = `Bearer ${credential.token}`
    else if (credential.kind === 'sas') for (const [k, v] of new URLSearchParams(credential.query)) url.searchParams.set(k, v)
    delete headers['content-length'] // fetch sets it from the body (the signed value)
    return fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) })
  }
}

async function expectOk(r: Response, what: string): Promise<string> {
  const text = await r.text()
  if (!r.ok) throw new Error(`The object store refused to ${what} a name claim (HTTP ${r.status} ${r.headers.get('x-ms-error-code') ?? ''})`.trim())
  return text
}

/** Shared Key (learn.microsoft.com "Authorize with Shared Key"), for any verb and the standard headers we send. */
function signature(method: string, account: string, key: Buffer, url: URL, headers: Record<string, string>): string {
  const h = (name: string) => headers[name] ?? ''
  const canonicalHeaders = Object.keys(headers)
    .filter((name) => name.startsWith('x-ms-'))
    .sort()
    .map((name) => `${name}:${headers[name]}\n`)
    .join('')
  const params = [...url.searchParams.keys()].map((k) => k.toLowerCase()).sort()
  const canonicalQuery = params.map((k) => `\n${k}:${url.searchParams.getAll(k).join(',')}`).join('')
  const resource = `/${account}${decodeURIComponent(url.pathname)}${canonicalQuery}`
  const length = h('content-length') === '0' ? '' : h('content-length')
  const toSign = [method, '', '', length, '', h('content-type'), '', '', h('if-match'), h('if-none-match'), '', '', canonicalHeaders + resource].join('\n')
  return createHmac('sha256', key).update(toSign, 'utf8').digest('base64')
}
