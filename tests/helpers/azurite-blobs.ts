import { createHmac } from 'node:crypto'
import { AZURITE_ACCOUNT, AZURITE_KEY, type Azurite } from './azurite'

/**
 * Read-only views of an Azurite container for tests: every blob's name (with its ETag, so a rewrite shows too),
 * and account SAS tokens with chosen permissions. Requests are signed with the emulator's key.
 */
export async function blobsUnder(azurite: Azurite, root: string): Promise<string[]> {
  const { container, prefix } = split(root)
  const names: string[] = []
  let marker = ''
  do {
    const query: Record<string, string> = { restype: 'container', comp: 'list', prefix: prefix ? `${prefix}/` : '', maxresults: '5000', ...(marker ? { marker } : {}) }
    const response = await signedGet(azurite.endpoint, `/${container}`, query)
    const body = await response.text()
    if (!response.ok) throw new Error(`listing ${root} answered ${response.status}: ${body}`)
    for (const blob of body.matchAll(/<Blob>.*?<Name>([^<]*)<\/Name>.*?<Etag>([^<]*)<\/Etag>.*?<\/Blob>/gs)) names.push(`${blob[1]} ${blob[2]}`)
    marker = /<NextMarker>([^<]*)<\/NextMarker>/.exec(body)?.[1] ?? ''
  } while (marker)
  return names.sort()
}

/** Delete one blob (`name` as listed, without its ETag): damage a table the way a lost file would. */
export async function deleteBlob(azurite: Azurite, root: string, name: string): Promise<void> {
  const { container } = split(root)
  const path = `/${container}/${name.split('/').map(encodeURIComponent).join('/')}`
  const response = await sharedKeyRequest(azurite.endpoint, 'DELETE', path, {})
  if (response.status !== 202) throw new Error(`deleting ${name} answered ${response.status}: ${await response.text()}`)
}

/** An account SAS token (query string) for the blob service with these permissions (`r`, `l`, `w`, `d`, `c`, …). */
export function accountSas(permissions: string, key = AZURITE_KEY): string {
  const version = '2021-12-02'
  const expiry = new Date(Date.now() + 3600_000).toISOString().replace(/\.\d+Z$/, 'Z')
  const toSign = [AZURITE_ACCOUNT, permissions, 'b', 'sco', '', expiry, '', 'https,http', version, '', ''].join('\n')
  const sig = createHmac('sha256', Buffer.from(key, 'base64')).update(toSign, 'utf8').digest('base64')
  return new URLSearchParams({ sv: version, ss: 'b', srt: 'sco', sp: permissions, se: expiry, spr: 'https,http', sig }).toString()
}

function split(root: string): { container: string; prefix: string } {
  const [container, ...rest] = root.replace(/^az:\/\//, '').split('/')
  return { container: container!, prefix: rest.join('/') }
}

function signedGet(endpoint: string, path: string, query: Record<string, string>): Promise<Response> {
  return sharedKeyRequest(endpoint, 'GET', path, query)
}

/** A request to Azurite's blob service signed with the emulator's Shared Key (`query` also goes into the signature). */
export async function sharedKeyRequest(endpoint: string, method: string, path: string, query: Record<string, string>): Promise<Response> {
  const date = new Date().toUTCString()
  const version = '2021-12-02'
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((k) => `\n${k}:${query[k]}`)
    .join('')
  const resource = `/${AZURITE_ACCOUNT}/${AZURITE_ACCOUNT}${path}${canonicalQuery}`
  const toSign = [method, '', '', '', '', '', '', '', '', '', '', '', `x-ms-date:${date}\nx-ms-version:${version}\n${resource}`].join('\n')
  const signature = createHmac('sha256', Buffer.from(AZURITE_KEY, 'base64')).update(toSign, 'utf8').digest('base64')
  const search = Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : ''
  return fetch(`${endpoint}${path}${search}`, { method, headers: { 'x-ms-date': date, 'x-ms-version': version, Authorization: `SharedKey ${AZURITE_ACCOUNT}:${signature}` } })
}
