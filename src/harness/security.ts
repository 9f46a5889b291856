import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'

/** A fresh secret for one harness run; it travels to the page in the URL fragment (never sent to the server by the browser). */
export function newToken(): string {
  return randomBytes(24).toString('base64url')
}

/** Constant-time comparison; hashing first makes both sides the same length. */
export function tokensMatch(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false
  const a = createHash('sha256').update(expected).digest()
  const b = createHash('sha256').update(given).digest()
  return timingSafeEqual(a, b)
}

/**
 * DNS-rebinding guard: a page on another origin that resolves to 127.0.0.1 still sends its own
 * Host. Only our literal loopback names with our port are accepted.
 */
export function isAllowedHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

/** The parts of a request head the harness decides on (a FastifyRequest has them). */
export interface RequestHead {
  method: string
  url: string
  headers: Record<string, string | string[] | undefined>
  query?: unknown
}

/**
 * Why the harness refuses a request, decided from its head alone (never after reading a body), or null:
 * a foreign Host (DNS rebinding) or Origin (another page) is 403; an API call without the token is 401
 * (`GET /api/events` and `GET /api/exports/<jobId>` may carry it as `?token=`, since EventSource and a download
 * link cannot set headers); only the upload
 * route may send a large body, and only as application/octet-stream.
 */
export function refuse(request: RequestHead, port: number, token: string): { status: number; message: string } | null {
  if (!isAllowedHost(typeof request.headers.host === 'string' ? request.headers.host : undefined, port)) return { status: 403, message: 'Forbidden host' }
  const origin = request.headers.origin
  if (origin !== undefined && origin !== `http://127.0.0.1:${port}` && origin !== `http://localhost:${port}`) return { status: 403, message: 'Forbidden origin' }
  const path = request.url.split('?')[0]!
  if (path === '/api' || path.startsWith('/api/')) {
    const queryToken = request.method === 'GET' && (path === '/api/events' || path.startsWith('/api/exports/')) ? (request.query as { token?: unknown } | undefined)?.token : undefined
    if (!tokensMatch(token, request.headers['x-harness-token']) && !tokensMatch(token, queryToken)) {
      return { status: 401, message: 'Missing or wrong harness token; open the URL the harness printed' }
    }
    if (path === '/api/upload' && !String(request.headers['content-type'] ?? '').startsWith('application/octet-stream')) {
      return { status: 415, message: 'Send the file as the raw body (content-type application/octet-stream)' }
    }
  } else if (request.method !== 'GET' && request.method !== 'HEAD') {
    return { status: 405, message: 'Only GET and HEAD outside /api' }
  }
  return null
}
