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
