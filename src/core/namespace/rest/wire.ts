/**
 * Encoding rules of the REST namespace wire (rest-contract.md §1), shared by our client and our server.
 */

export const DEFAULT_DELIMITER = '$'

export const ARROW_STREAM = 'application/vnd.apache.arrow.stream'
export const ARROW_FILE = 'application/vnd.apache.arrow.file'

/**
 * `url::form_urlencoded::byte_serialize`, which the Rust client uses for path ids: only
 * `A-Z a-z 0-9 * - . _` stay literal and a space becomes `+` (so `$` → `%24`, `/` → `%2F`).
 */
export function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+')
}

/** The `{id}` path segment: parts joined by the delimiter; the root namespace is the delimiter itself. */
export function encodeId(parts: readonly string[], delimiter = DEFAULT_DELIMITER): string {
  return formEncode(parts.length === 0 ? delimiter : parts.join(delimiter))
}

/** Inverse of {@link encodeId} on the server: `+` means space, and is decoded before `%XX` (contract §9.2). */
export function decodeId(segment: string, delimiter = DEFAULT_DELIMITER): string[] {
  const text = decodeURIComponent(segment.replace(/\+/g, ' '))
  if (text === delimiter) return []
  return text.split(delimiter)
}

/** Creation and write modes: PascalCase on the namespace wire, but servers accept any case and snake_case. */
export function normalizeMode(mode: unknown): string | undefined {
  if (typeof mode !== 'string' || mode === '') return undefined
  // Some clients Debug-format the string with quotes (contract §9.9).
  return mode.replace(/^"+|"+$/g, '').replace(/[_\s-]/g, '').toLowerCase()
}
