import { z } from 'zod'

/**
 * Where a directory catalog lives when it is not (only) a local path: `s3://bucket/prefix`, `gs://bucket/prefix`,
 * `az://container/prefix` or `file:///abs/path`, plus the storage options Lance takes for that store
 * (object_store's keys: `aws_endpoint`, `azure_storage_account_key`, `allow_http`, …).
 * Shared by the app's connection dialog, the harness and server command lines, and core.
 */
export const OBJECT_STORE_SCHEMES = ['s3', 'gs', 'az', 'file'] as const
export type ObjectStoreScheme = (typeof OBJECT_STORE_SCHEMES)[number]

export const MAX_STORAGE_OPTIONS = 64

/** Keys whose values are secrets: kept in safeStorage, never logged, never sent back to the renderer. */
export const SECRET_STORAGE_KEYS: ReadonlySet<string> = new Set([
  'aws_secret_access_key',
  'secret_access_key',
  'aws_session_token',
  'session_token',
  'azure_storage_account_key',
  'azure_storage_access_key',
  'access_key',
  'account_key',
  'azure_storage_sas_key',
  'azure_storage_sas_token',
  'sas_key',
  'sas_token',
  'azure_storage_token',
  'bearer_token',
  'azure_client_secret',
  'client_secret',
  'google_service_account_key',
  'service_account_key',
])

export function isSecretStorageKey(key: string): boolean {
  return SECRET_STORAGE_KEYS.has(key.toLowerCase())
}

/** Which scheme a catalog location uses, or null for a plain local path. */
export function objectStoreScheme(location: string): ObjectStoreScheme | null {
  const match = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location)
  if (!match) return null
  const scheme = match[1]!.toLowerCase()
  return (OBJECT_STORE_SCHEMES as readonly string[]).includes(scheme) ? (scheme as ObjectStoreScheme) : null
}

/** Why `uri` is not an object-store catalog location we accept, or null. */
export function objectStoreUriProblem(uri: string): string | null {
  if (uri.length > 2048) return 'is longer than 2048 characters'
  if (/[\0\r\n]/.test(uri)) return 'contains a control character'
  const scheme = objectStoreScheme(uri)
  if (!scheme) return 'must start with s3://, gs://, az:// or file://'
  let parsed: URL
  try {
    parsed = new URL(uri)
  } catch {
    return 'is not a valid URI'
  }
  if (parsed.username || parsed.password) return 'must not carry credentials; give them as storage options'
  if (parsed.search || parsed.hash) return 'must not have a query or fragment'
  if (scheme === 'file') return parsed.host && parsed.host !== 'localhost' ? 'file:// URIs must name a local path (file:///…)' : null
  if (!parsed.host) return `needs a ${scheme === 'az' ? 'container' : 'bucket'} name (${scheme}://<name>/<prefix>)`
  // The raw text, not `parsed.pathname`: URL parsing resolves "a/../b" to "b" silently.
  const segments = uri.slice(scheme.length + 3).split('/').map((part) => safeDecode(part))
  if (segments.some((part) => part === '..' || part === '.')) return 'must not contain "." or ".." path segments'
  return null
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

export const objectStoreUriSchema = z.string().trim().superRefine((value, ctx) => {
  const problem = objectStoreUriProblem(value)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

const storageKeySchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(128)
  .regex(/^[A-Za-z0-9_.-]+$/, 'must be made of letters, digits, "_", "." and "-"')
const storageValueSchema = z
  .string()
  .max(16384)
  .refine((v) => !/[\0\r\n]/.test(v) || v.trimStart().startsWith('{'), 'must not contain line breaks')

export const storageOptionsSchema = z
  .record(storageKeySchema, storageValueSchema)
  .refine((options) => Object.keys(options).length <= MAX_STORAGE_OPTIONS, `at most ${MAX_STORAGE_OPTIONS} storage options`)

export type StorageOptions = Record<string, string>

/** `key=value` as given on a command line (`--storage-option aws_region=us-east-1`). */
export function parseStorageOption(entry: string): [string, string] {
  const i = entry.indexOf('=')
  if (i <= 0) throw new Error(`--storage-option wants <key>=<value>, got "${entry.length > 80 ? entry.slice(0, 80) + '…' : entry}"`)
  const key = entry.slice(0, i).trim()
  const parsedKey = storageKeySchema.safeParse(key)
  if (!parsedKey.success) throw new Error(`--storage-option key "${key.slice(0, 80)}" ${parsedKey.error.issues[0]?.message ?? 'is not valid'}`)
  return [key.toLowerCase(), entry.slice(i + 1)]
}

/** Every `--storage-option key=value` of a command line (harness, MCP server), checked; a key given twice is a
 * mistake worth stopping for (which value would win is a guess). */
export function storageOptionsFromFlags(entries: readonly string[]): StorageOptions {
  const options: StorageOptions = {}
  for (const entry of entries) {
    const [key, value] = parseStorageOption(entry)
    if (key in options) throw new Error(`--storage-option ${key} is given twice`)
    options[key] = value
  }
  const checked = storageOptionsSchema.safeParse(options)
  if (!checked.success) throw new Error(`--storage-option: ${checked.error.issues[0]?.message ?? 'not valid'}`)
  return options
}

/** Options with every secret value replaced, for logs and messages. */
export function redactStorageOptions(options: StorageOptions): StorageOptions {
  return Object.fromEntries(Object.entries(options).map(([k, v]) => [k, isSecretStorageKey(k) ? '•••' : v]))
}
