import type { AzureAccess } from '../../objectStore/azure'
import type { ObjectStoreLocation } from '../../objectStore/location'
import { authorizeAzure } from '../../objectStore/sharedKey'
import { HttpClaimStore } from './httpStore'

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
    const name = [this.location.prefix, key].filter(Boolean).join('/')
    const url = new URL(`${this.access.endpoint}/${encodeURIComponent(this.location.bucket)}/${name.split('/').map(encodeURIComponent).join('/')}`)
    const payload = body === undefined ? undefined : Buffer.from(body, 'utf8')
    const headers: Record<string, string> = { ...extra }
    if (payload) headers['content-length'] = String(payload.byteLength)
    authorizeAzure(this.access, method, url, headers)
    delete headers['content-length'] // fetch sets it from the body (the signed value)
    return fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) })
  }
}
