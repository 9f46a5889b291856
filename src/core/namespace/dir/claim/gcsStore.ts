import type { GcsAccess } from '../../objectStore/gcs'
import type { ObjectStoreLocation } from '../../objectStore/location'
import { HttpClaimStore } from './httpStore'

/**
 * Claims as objects under the catalog's prefix in a GCS bucket, over the XML API. GCS's conditions are on an
 * object's generation: create is a PUT with `x-goog-if-generation-match: 0` (only if absent), renew and remove
 * carry the generation read; 412 means another writer got there first.
 */
export class GcsClaimStore extends HttpClaimStore {
  protected readonly putHeaders = {}

  constructor(
    private readonly access: GcsAccess,
    private readonly location: ObjectStoreLocation,
  ) {
    super()
  }

  protected override createConditions(): Record<string, string> {
    return { 'x-goog-if-generation-match': '0' }
  }

  protected override matchConditions(tag: string): Record<string, string> {
    return { 'x-goog-if-generation-match': tag }
  }

  protected override tagOf(response: Response): string | null {
    return response.headers.get('x-goog-generation')
  }

  protected errorCode(_response: Response, text: string): string {
    return /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? ''
  }

  protected async send(method: string, key: string, extra: Record<string, string>, body?: string): Promise<Response> {
    const name = [this.location.prefix, key].filter(Boolean).join('/')
    const url = `${this.access.baseUrl}/${encodeURIComponent(this.location.bucket)}/${name.split('/').map(encodeURIComponent).join('/')}`
    const token = this.access.token()
    const headers: Record<string, string> = { ...extra, ...(token ? { authorization: `Bearer ${token}` } : {}) }
    return fetch(url, { method, headers, body: body === undefined ? undefined : Buffer.from(body, 'utf8'), signal: AbortSignal.timeout(30_000) })
  }
}
