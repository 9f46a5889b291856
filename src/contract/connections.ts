import { z } from 'zod'
import type { AppErrorData } from './result'
import { isSecretStorageKey, MAX_STORAGE_OPTIONS, objectStoreUriSchema, storageOptionsSchema } from './objectStore'

/**
 * Saved REST connections as the renderer sees them, and the drafts it sends to save one.
 * Secrets (API keys, tokens, secret headers) go renderer → main once, on save; they never come back:
 * a view says *that* a secret is saved (the form shows "••••• saved"), never what it is.
 */
export type AuthKind = 'api-key' | 'bearer' | 'none'

export interface SavedConnectionView {
  kind: 'rest'
  id: string
  name: string
  endpoint: string
  auth: { kind: AuthKind; saved: boolean }
  /** `x-service-database` (name) or `x-service-database-prefix` (prefix). */
  database?: { kind: 'name' | 'prefix'; value: string }
  headers: Array<{ name: string; secret: boolean; value?: string; saved: boolean }>
  createdAt: number
  updatedAt: number
}

const headerNameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(256)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'is not a valid HTTP header name')
const headerValueSchema = z
  .string()
  .max(8192)
  .refine((v) => !/[\r\n\0]/.test(v), 'must not contain line breaks')

/** Set through their own fields, so "extra headers" cannot override them. */
const RESERVED_HEADERS = new Set(['x-api-key', 'authorization', 'x-service-database', 'x-service-database-prefix', 'host', 'content-length', 'content-type'])

/**
 * What the renderer sends to save (or test) a connection. A secret left out (`undefined`) keeps the
 * saved one; an empty string clears it.
 */
export const connectionDraftSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
    name: z.string().trim().min(1, 'must not be empty').max(200),
    endpoint: z
      .string()
      .trim()
      .max(2048)
      .refine((v) => {
        try {
          const u = new URL(v)
          return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password
        } catch {
          return false
        }
      }, 'must be an http:// or https:// URL without credentials'),
    auth: z.object({ kind: z.enum(['api-key', 'bearer', 'none']), secret: headerValueSchema.optional() }),
    database: z.object({ kind: z.enum(['name', 'prefix']), value: headerValueSchema.min(1) }).optional(),
    headers: z
      .array(z.object({ name: headerNameSchema, value: headerValueSchema.optional(), secret: z.boolean().default(false) }))
      .max(50)
      .default([]),
  })
  .superRefine((draft, ctx) => {
    const seen = new Set<string>()
    draft.headers.forEach((h, i) => {
      const lower = h.name.toLowerCase()
      if (RESERVED_HEADERS.has(lower)) ctx.addIssue({ code: 'custom', path: ['headers', i, 'name'], message: `"${h.name}" is set by the authentication or database fields` })
      if (seen.has(lower)) ctx.addIssue({ code: 'custom', path: ['headers', i, 'name'], message: `"${h.name}" appears twice` })
      seen.add(lower)
    })
  })

export type ConnectionDraft = z.input<typeof connectionDraftSchema>

/** Operations a REST server may not support; the UI disables the matching action with the reason. */
export const operationLabels = {
  'namespace.list': 'listing namespaces',
  'namespace.create': 'creating namespaces',
  'namespace.describe': 'describing namespaces',
  'namespace.drop': 'dropping namespaces',
  'namespace.exists': 'checking that a namespace exists',
  'table.list': 'listing tables',
  'table.listAll': 'listing all tables (GET /v1/tables)',
  'table.describe': 'describing tables',
  'table.countRows': 'counting rows',
  'table.query': 'reading rows',
  'table.create': 'creating tables',
  'table.createFromStream': 'creating tables (POST /v1/tables/{name})',
  'table.insert': 'appending rows',
  'table.restore': 'restoring a table version',
  'table.drop': 'dropping tables',
  'table.rename': 'renaming tables',
  'table.exists': 'checking that a table exists',
  'table.filter': 'filtering rows',
  'table.sort': 'sorting rows',
  'table.vectorSearch': 'finding similar rows (vector search)',
  'table.textSearch': 'full-text search',
  'table.countFiltered': 'counting filtered rows',
  'table.explain': 'explaining query plans',
  'table.indexList': 'listing indexes',
  'table.versions': 'listing table versions',
  'table.tags': 'listing tags',
  'table.tagWrite': 'creating and deleting tags',
  'table.indexes': 'listing indexes',
  'table.createIndex': 'creating indexes',
  'table.dropIndex': 'dropping indexes',
  'table.stats': 'reading table stats',
  'table.optimize': 'optimizing tables',
  'table.alterSchema': 'changing table schemas',
  'table.deleteRows': 'deleting rows',
} as const

export type Operation = keyof typeof operationLabels

/**
 * `{ [operation]: { supported, reason? } }`; `supported: undefined` = not tried yet. A reason that starts with the
 * operation's label is a whole sentence shown as is (an object-store catalog is not "a server").
 */
export type CapabilitySnapshot = Record<Operation, { supported: boolean | undefined; reason?: string }>

export interface VerificationStep {
  step: 'list' | 'walk' | 'create' | 'list-again' | 'drop'
  ok: boolean
  /** What happened, in words. */
  message: string
  ms: number
}

/** The result of "Test connection" (the specification's verification sequence). */
export interface VerificationReport {
  ok: boolean
  /** Tables found by the first list (`GET /v1/tables`). */
  tables: string[]
  /** Whether the round trip ran (it writes: create, then drop, a small table). */
  wrote: boolean
  steps: VerificationStep[]
  /** The first failure, already free of secrets. */
  error?: AppErrorData
  capabilities: CapabilitySnapshot
  /** What the server holds beyond the root: its namespaces, walked up to a bound. */
  inventory?: CatalogInventory
}

/**
 * "Test connection" also walks the namespaces (breadth first, at most `limit` of them), because
 * `GET /v1/tables` lists only the root and a catalog often keeps every table in namespaces.
 */
export interface CatalogInventory {
  /** Tables directly at the root. */
  rootTables: number
  /** Namespaces directly at the root. */
  rootNamespaces: number
  /** Namespaces found (at every depth reached so far). */
  namespacesFound: number
  /** Namespaces whose tables and children were listed. */
  namespacesWalked: number
  /** Tables found in the walked namespaces. */
  tablesInNamespaces: number
  /** Every namespace was walked (no bound reached, no error). */
  complete: boolean
  limit: number
  /** Why the walk stopped early (an unsupported route, a permission error), in words. */
  stoppedBy?: string
}

// ---- object-store catalogs -------------------------------------------------------------------

/**
 * A saved object-store catalog as the renderer sees it: its URI, the storage options that are not secret,
 * and *which* secret options are saved (never their values: the form shows "••••• saved").
 */
export interface ObjectStoreConnectionView {
  kind: 'object-store'
  id: string
  name: string
  /** `s3://bucket/prefix`, `gs://bucket/prefix`, `az://container/prefix` or `file:///path`. */
  uri: string
  /** Storage options whose values are not secret (region, endpoint, account name, allow_http, …). */
  options: Record<string, string>
  /** Keys of the secret storage options saved for it (values stay in the secret store). */
  secrets: string[]
  createdAt: number
  updatedAt: number
}

/**
 * What the renderer sends to save, test or connect an object-store catalog. `options` holds every value the
 * user typed (secrets included, sent once); `keep` names saved secrets to keep as they are. A saved secret in
 * neither is removed.
 */
export const objectStoreDraftSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
    name: z.string().trim().min(1, 'must not be empty').max(200),
    uri: objectStoreUriSchema,
    options: storageOptionsSchema.default({}),
    keep: z.array(z.string().min(1).max(128)).max(MAX_STORAGE_OPTIONS).default([]),
  })
  .superRefine((draft, ctx) => {
    const lower = new Set<string>()
    for (const key of Object.keys(draft.options)) {
      if (lower.has(key.toLowerCase())) ctx.addIssue({ code: 'custom', path: ['options', key], message: `"${key}" appears twice` })
      lower.add(key.toLowerCase())
    }
    for (const key of draft.keep) {
      if (!isSecretStorageKey(key)) ctx.addIssue({ code: 'custom', path: ['keep'], message: `"${key}" is not a secret option` })
    }
  })

export type ObjectStoreDraft = z.input<typeof objectStoreDraftSchema>

/** "Test" of an object-store catalog: it opens the root and lists what is there (reads only). */
export interface ObjectStoreTestReport {
  /** Namespaces and tables directly at the root (first page). */
  namespaces: number
  tables: number
  /** More than counted (a page limit was reached). */
  more: boolean
  ms: number
}


/**
 * The words of the error for a directory or object-store prefix with nothing in it. The start screen and the
 * object-store dialog offer **Create a catalog here** for exactly this error.
 */
export const EMPTY_ROOT_WORDS = 'is empty: there is no Lance catalog to browse'

export function isEmptyRootError(error: AppErrorData | null | undefined): boolean {
  return !!error && error.code === 'not_a_catalog' && error.message.endsWith(EMPTY_ROOT_WORDS)
}

// ---- both kinds ------------------------------------------------------------------------------

/** The kinds of saved connection: a REST catalog server, or a directory catalog in object storage (or `file://`). */
export const SAVED_KINDS = ['rest', 'object-store'] as const
export type SavedKind = (typeof SAVED_KINDS)[number]
export const savedKindSchema = z.enum(SAVED_KINDS)

/** A saved connection of either kind, as the renderer sees it (`kind` says which). */
export type SavedView = SavedConnectionView | ObjectStoreConnectionView
/** What "Test" answers, per kind. */
export type SavedTestReport = VerificationReport | ObjectStoreTestReport
