import { bucketUrl, type S3Access } from '../../objectStore/s3'
import type { ObjectStoreLocation } from '../../objectStore/location'
import { amzDateOf, sha256Hex, signV4 } from '../../objectStore/sigv4'
import { HttpClaimStore } from './httpStore'

/** Claims as objects under the catalog's prefix in an S3 bucket (S3's conditional writes and deletes), SigV4-signed. */
export class S3ClaimStore extends HttpClaimStore {
  protected readonly putHeaders = {}

  constructor(
    private readonly access: S3Access,
    private readonly location: ObjectStoreLocation,
  ) {
    super()
  }

  protected errorCode(_response: Response, text: string): string {
    return /<Code>([^<]+)<\/Code>/.exec(text)?.[1] ?? ''
  }

  protected async send(method: string, key: string, extra: Record<string, string>, body?: string): Promise<Response> {
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
