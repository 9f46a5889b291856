import type { AuthKind, SavedConnectionView } from '../../contract/connections'
import { isAlwaysSecretHeader } from './redact'

/**
 * Saved REST connections. What is on disk (a {@link SavedConnection}) holds no secret: API keys, tokens and
 * secret header values live in a {@link SecretStore} (Electron `safeStorage` in the app, memory in tests),
 * under keys from {@link secretKey}. What goes to the renderer is a {@link ConnectionView}: it says *that* a
 * secret is saved, never what it is.
 */

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

export type { ConnectionDraft, AuthKind } from '../../contract/connections'
export { connectionDraftSchema } from '../../contract/connections'
/** The renderer's view: secrets replaced by "saved" flags (the form shows "••••• saved"). */
export type ConnectionView = SavedConnectionView

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
