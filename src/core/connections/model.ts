import { z } from 'zod'
import { isAlwaysSecretHeader } from './redact'

/**
 * Saved REST connections. What is on disk (a {@link SavedConnection}) holds no secret: API keys, tokens and
 * secret header values live in a {@link SecretStore} (Electron `safeStorage` in the app, memory in tests),
 * under keys from {@link secretKey}. What goes to the renderer is a {@link ConnectionView}: it says *that* a
 * secret is saved, never what it is.
 */

export type AuthKind = 'api-key' | 'bearer' | 'none'

/** Where the secrets are kept. Main implements it with safeStorage; tests with a Map. */
export interface SecretStore {
  get(key: string): Promise<string | undefined>
  set(key: string, value: string): Promise<void>
  delete(key: string): Promise<void>
}

export class MemorySecretStore implements SecretStore {
  readonly entries = new Map<string, string>()
  async get(key: string) {
    return this.entries.get(key)
  }
  async set(key: string, value: string) {
    this.entries.set(key, value)
  }
  async delete(key: string) {
    this.entries.delete(key)
  }
}

export interface SavedHeader {
  name: string
  /** Present only for non-secret headers; secret values are in the SecretStore. */
  value?: string
  secret: boolean
}

export interface SavedConnection {
  id: string
  name: string
  /** `{base_url}` of the catalog server. */
  endpoint: string
  auth: AuthKind
  /** `x-service-database` (name) or `x-service-database-prefix` (prefix). */
  database?: { kind: 'name' | 'prefix'; value: string }
  headers: SavedHeader[]
  createdAt: number
  updatedAt: number
}

/** The renderer's view: secrets replaced by "saved" flags (the form shows "••••• saved"). */
export interface ConnectionView {
  id: string
  name: string
  endpoint: string
  auth: { kind: AuthKind; saved: boolean }
  database?: { kind: 'name' | 'prefix'; value: string }
  headers: Array<{ name: string; secret: boolean; value?: string; saved: boolean }>
  createdAt: number
  updatedAt: number
}

const headerNameSchema = z.string().trim().min(1, 'must not be empty').max(256).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'is not a valid HTTP header name')
const headerValueSchema = z.string().max(8192).refine((v) => !/[\r\n\0]/.test(v), 'must not contain line breaks')

/** Reserved header names: set through their own fields, so they cannot be overridden by "extra headers". */
const RESERVED = new Set(['x-api-key', 'authorization', 'x-service-database', 'x-service-database-prefix', 'host', 'content-length', 'content-type'])

/**
 * What the renderer sends to save a connection. A secret left out (`undefined`) keeps the saved one;
 * an empty string clears it.
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
      if (RESERVED.has(lower)) ctx.addIssue({ code: 'custom', path: ['headers', i, 'name'], message: `"${h.name}" is set by the authentication or database fields` })
      if (seen.has(lower)) ctx.addIssue({ code: 'custom', path: ['headers', i, 'name'], message: `"${h.name}" appears twice` })
      seen.add(lower)
    })
  })

export type ConnectionDraft = z.input<typeof connectionDraftSchema>

/** Where a secret of a connection is kept in the SecretStore. */
export function secretKey(connectionId: string, what: 'auth' | { header: string }): string {
  return what === 'auth' ? `connection/${connectionId}/auth` : `connection/${connectionId}/header/${what.header.toLowerCase()}`
}

/** A header the user marked secret, or one that always is (`Authorization`, `x-api-key`, …). */
export function isSecretHeader(header: { name: string; secret: boolean }): boolean {
  return header.secret || isAlwaysSecretHeader(header.name)
}

/**
 * The `connectNamespace('rest', …)` properties of a saved connection, secrets included — for main only,
 * never for logs or the renderer. Missing secrets are left out (the server will say the key is rejected).
 */
export async function connectionProperties(connection: SavedConnection, secrets: SecretStore): Promise<Record<string, string>> {
  const properties: Record<string, string> = { uri: connection.endpoint }
  const authSecret = connection.auth === 'none' ? undefined : await secrets.get(secretKey(connection.id, 'auth'))
  if (authSecret) {
    if (connection.auth === 'api-key') properties['headers.x-api-key'] = authSecret
    else properties['headers.Authorization'] = /^Bearer\s/i.test(authSecret) ? authSecret : `Bearer ${authSecret}`
  }
  if (connection.database) {
    properties[connection.database.kind === 'name' ? 'headers.x-service-database' : 'headers.x-service-database-prefix'] = connection.database.value
  }
  for (const header of connection.headers) {
    const value = isSecretHeader(header) ? await secrets.get(secretKey(connection.id, { header: header.name })) : header.value
    if (value !== undefined) properties[`headers.${header.name}`] = value
  }
  return properties
}

/** Every secret value of a connection (to redact them from any text). */
export async function connectionSecrets(connection: SavedConnection, secrets: SecretStore): Promise<string[]> {
  const out: string[] = []
  const auth = await secrets.get(secretKey(connection.id, 'auth'))
  if (auth) out.push(auth)
  for (const h of connection.headers) {
    if (!isSecretHeader(h)) continue
    const v = await secrets.get(secretKey(connection.id, { header: h.name }))
    if (v) out.push(v)
  }
  return out
}
