import { createHmac } from 'node:crypto'
import type { AzureAccess } from '../../objectStore/azure'
import type { ObjectStoreLocation } from '../../objectStore/location'
import { HttpClaimStore } from './httpStore'

const API_VERSION = '2021-12-02'

/** Claims as block blobs under the catalog's prefix in an Azure container, signed with Shared Key, SAS or a token. */
export class AzureClaimStore extends HttpClaimStore {
  protected readonly putHeaders = { 'x-ms-blob-type': 'BlockBlob' }

  constructor(
    private readonly access: AzureAccess,
    private readonly location: ObjectStoreLocation,
  ) {
    super()
  }

  protected errorCode(response: Response): string {
    return response.headers.get('x-ms-error-code') ?? ''
  }

  protected async send(method: string, key: string, extra: Record<string, string>, body?: string): Promise<Response> {
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
