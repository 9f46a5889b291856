import { createHmac } from 'node:crypto'
import type { AzureAccess } from './azure'

/** The Blob service version our own requests (the probe's listing, the name claims) speak. */
export const AZURE_API_VERSION = '2021-12-02'

/**
 * Sign one Blob service request of ours with the access's credential, in place: Shared Key (an `authorization`
 * header over the request's canonical form), a bearer token, or a SAS (its parameters added to the URL); an
 * anonymous access sends it as it is. `x-ms-date` and `x-ms-version` are set here; `headers` holds what else is
 * sent (lower-case names), `content-length` included when there is a body (signed, then left to fetch to send).
 */
export function authorizeAzure(access: AzureAccess, method: string, url: URL, headers: Record<string, string>): void {
  const { account, credential } = access
  headers['x-ms-date'] = new Date().toUTCString()
  headers['x-ms-version'] = AZURE_API_VERSION
  if (credential.kind === 'key') headers.authorization = `SharedKey ${account}:${sharedKeySignature(method, account, credential.key, url, headers)}`
  else if (credential.kind === 'token') headers.authorization = `Bearer ${credential.token}`
  else if (credential.kind === 'sas') for (const [k, v] of new URLSearchParams(credential.query)) url.searchParams.set(k, v)
}

/**
 * Shared Key: HMAC-SHA256 of the request's canonical form (learn.microsoft.com "Authorize with Shared Key"), for any
 * verb and the standard headers we send (content length and type, the conditional ones); the others sign empty.
 */
export function sharedKeySignature(method: string, account: string, key: Buffer, url: URL, headers: Record<string, string>): string {
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
