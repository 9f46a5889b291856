import { createHash, createHmac } from 'node:crypto'

export interface SigV4Request {
  method: string
  url: URL
  /** Headers to sign (lower-case names); `host` and `x-amz-date` are added. */
  headers: Record<string, string>
  payloadHash: string
  region: string
  service: string
  accessKeyId: string
  secretAccessKey: string
  /** `YYYYMMDDTHHMMSSZ`. */
  amzDate: string
}

/**
 * AWS Signature Version 4 of one request (docs.aws.amazon.com "Create a signed AWS API request"): returns the
 * headers to send (the given ones, `host`, `x-amz-date` and `authorization`).
 */
export function signV4(request: SigV4Request): Record<string, string> {
  const headers: Record<string, string> = { ...request.headers, host: request.url.host, 'x-amz-date': request.amzDate }
  const names = Object.keys(headers).map((h) => h.toLowerCase()).sort()
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim().replace(/\s+/g, ' ')]))
  const canonicalHeaders = names.map((h) => `${h}:${lower[h]}\n`).join('')
  const signedHeaders = names.join(';')
  const query = [...request.url.searchParams.entries()]
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
  const path = request.url.pathname
    .split('/')
    .map((segment) => rfc3986(decodeURIComponent(segment)))
    .join('/')
  const canonical = [request.method, path || '/', query, canonicalHeaders, signedHeaders, request.payloadHash].join('\n')
  const day = request.amzDate.slice(0, 8)
  const scope = `${day}/${request.region}/${request.service}/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', request.amzDate, scope, sha256Hex(canonical)].join('\n')
  let key: Buffer = hmac(`AWS4${request.secretAccessKey}`, day)
  for (const part of [request.region, request.service, 'aws4_request']) key = hmac(key, part)
  const signature = createHmac('sha256', key).update(toSign, 'utf8').digest('hex')
  return { ...headers, authorization: `AWS4-HMAC-SHA256 Credential=${request.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}` }
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

export function amzDateOf(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest()
}

/** URI-encode as SigV4 wants: everything but unreserved characters (encodeURIComponent also spares !'()*). */
function rfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
}
