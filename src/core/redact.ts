/**
 * Keeping secrets out of logs, error messages and the renderer. Secrets are API keys, bearer tokens and
 * any header the user marked secret; `Authorization`, `x-api-key` and their look-alikes always are.
 */

export const MASK = '•••••'

/** Header names whose values are secret whatever the user says. */
const ALWAYS_SECRET = /^(authorization|proxy-authorization|x-api-key|api-key|cookie|set-cookie)$/i
/** Names that look like they carry a credential (used for logs and unknown headers). */
const LOOKS_SECRET = /(key|token|secret|passw|auth|cookie|session|credential|signature)/i

export function isAlwaysSecretHeader(name: string): boolean {
  return ALWAYS_SECRET.test(name.trim())
}

export function looksSecretHeader(name: string): boolean {
  return isAlwaysSecretHeader(name) || LOOKS_SECRET.test(name)
}

/**
 * Replace every occurrence of each secret (and of its Bearer-less form) in `text`. Secrets shorter than
 * 4 characters are skipped: masking every occurrence of them would garble ordinary text.
 */
export function redactText(text: string, secrets: Iterable<string>): string {
  let out = text
  const plain = [...new Set([...secrets].flatMap((s) => [s, s.replace(/^Bearer\s+/i, '')]))].filter((s) => s.length >= 4)
  // A hostile server may echo a secret encoded: URL-encoded, upper- or lower-cased, base64 (also inside a
  // longer base64 text such as `Basic user:key`). Each form is masked, matched without regard to case.
  const list = [...new Set(plain.flatMap(encodedForms))].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)
  for (const secret of list) out = out.replace(new RegExp(escapeRegExp(secret), 'gi'), MASK)
  // Also scrub credentials embedded in URLs (https://user:pass@host).
  return out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, `$1${MASK}@`)
}

/** The forms a secret may be echoed in: as is, URL-encoded, and base64/base64url at each byte alignment. */
function encodedForms(secret: string): string[] {
  const forms = [secret, encodeURIComponent(secret), encodeURI(secret)]
  const bytes = Buffer.from(secret, 'utf8')
  for (let shift = 0; shift < 3; shift++) {
    // Inside a longer base64 text the secret starts at any byte offset mod 3; the characters that
    // depend on its bytes alone are the same whatever surrounds it.
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64')
    const start = Math.ceil((shift * 8) / 6)
    const end = Math.floor(((shift + bytes.length) * 8) / 6)
    const inner = encoded.slice(start, end)
    // Short fragments would mask ordinary words; a secret's base64 is masked from 8 characters on.
    if (inner.length >= 8) forms.push(inner, inner.replace(/\+/g, '-').replace(/\//g, '_'))
    if (shift === 0) forms.push(encoded, encoded.replace(/=+$/, ''))
  }
  return forms
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** A copy of `headers` fit for a log line: secret-looking values masked. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>, secretNames: Iterable<string> = []): Record<string, string> {
  const extra = new Set([...secretNames].map((n) => n.toLowerCase()))
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    const text = Array.isArray(value) ? value.join(', ') : value
    out[name] = looksSecretHeader(name) || extra.has(name.toLowerCase()) ? MASK : text
  }
  return out
}

/** An Error (or AppError) whose message, detail and hint carry none of `secrets`. Mutates and returns it. */
export function redactError<E extends Error>(error: E, secrets: Iterable<string>): E {
  const list = [...secrets]
  if (list.length === 0) return error
  const e = error as E & { detail?: string; hint?: string }
  e.message = redactText(e.message, list)
  if (typeof e.detail === 'string') Object.defineProperty(e, 'detail', { value: redactText(e.detail, list), writable: true, configurable: true, enumerable: true })
  if (typeof e.hint === 'string') Object.defineProperty(e, 'hint', { value: redactText(e.hint, list), writable: true, configurable: true, enumerable: true })
  if (e.stack) e.stack = redactText(e.stack, list)
  return error
}
