import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { AppError } from '../../contract'
import { AtomicFile } from '../atomicFile'
import type { NamespaceClient } from '../namespace/client'
import {
  baseProperties,
  connectionDraftSchema,
  connectionProperties,
  isSecretHeader,
  secretKey,
  type ConnectionView,
  type SavedConnection,
  type SecretStore,
} from './model'

/** Where the (secret-free) connection records live: a JSON file in the app, memory in tests. */
export interface ConnectionRecords<T = SavedConnection> {
  load(): Promise<T[]>
  save(connections: T[]): Promise<void>
}

export class MemoryConnectionRecords<T = SavedConnection> implements ConnectionRecords<T> {
  private data: T[] = []
  async load() {
    return structuredClone(this.data)
  }
  async save(connections: T[]) {
    this.data = structuredClone(connections)
  }
}

/** A JSON file written atomically (temp file + rename), so a crash never leaves half a file. */
export class JsonFileConnectionRecords<T = SavedConnection> implements ConnectionRecords<T> {
  private readonly file: AtomicFile
  constructor(readonly path: string) {
    this.file = new AtomicFile(path, 0o600)
  }
  async load(): Promise<T[]> {
    let text: string
    try {
      text = await readFile(this.path, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw error
    }
    try {
      const value = JSON.parse(text) as { connections?: T[] }
      return Array.isArray(value.connections) ? value.connections : []
    } catch {
      throw new AppError('corrupt', `The saved connections file ${this.path} is damaged`, { hint: 'Move it aside; the app will start with no saved connections' })
    }
  }
  async save(connections: T[]): Promise<void> {
    await this.file.write(JSON.stringify({ version: 1, connections }, null, 2))
  }
}

/**
 * Saved connections: records without secrets plus a SecretStore. Saving validates first and writes the
 * secrets before the record, so a failure never loses or half-changes what was saved. Nothing here ever
 * deletes a connection except {@link ConnectionStore.remove}: a wrong key or a failed connect changes nothing.
 */
export class ConnectionStore {
  constructor(
    private readonly records: ConnectionRecords,
    private readonly secrets: SecretStore,
    private readonly now: () => number = Date.now,
  ) {}

  async list(): Promise<ConnectionView[]> {
    const all = await this.records.load()
    return Promise.all(all.map((c) => this.view(c)))
  }

  async get(id: string): Promise<SavedConnection> {
    const found = (await this.records.load()).find((c) => c.id === id)
    if (!found) throw new AppError('not_found', 'This saved connection no longer exists')
    return found
  }

  async view(connection: SavedConnection): Promise<ConnectionView> {
    const view: ConnectionView = {
      kind: 'rest',
      id: connection.id,
      name: connection.name,
      endpoint: connection.endpoint,
      auth: { kind: connection.auth, saved: connection.auth !== 'none' && (await this.secrets.get(secretKey(connection.id, 'auth'))) !== undefined },
      headers: await Promise.all(
        connection.headers.map(async (h) =>
          isSecretHeader(h)
            ? { name: h.name, secret: true, saved: (await this.secrets.get(secretKey(connection.id, { header: h.name }))) !== undefined }
            : { name: h.name, secret: false, value: h.value, saved: h.value !== undefined },
        ),
      ),
      createdAt: connection.createdAt,
      updatedAt: connection.updatedAt,
    }
    if (connection.database) view.database = { ...connection.database }
    return view
  }

  /** Create or update from a draft (unknown input: parsed here). Returns the renderer-safe view. */
  async save(rawDraft: unknown): Promise<ConnectionView> {
    const draft = parseDraft(rawDraft)
    const all = await this.records.load()
    const previous = draft.id ? all.find((c) => c.id === draft.id) : undefined
    if (draft.id && !previous) throw new AppError('not_found', 'This saved connection no longer exists')
    const id = previous?.id ?? randomUUID()
    const now = this.now()
    const record: SavedConnection = {
      id,
      name: draft.name,
      endpoint: draft.endpoint.replace(/\/+$/, ''),
      auth: draft.auth.kind,
      headers: draft.headers.map((h) => (isSecretHeader(h) ? { name: h.name, secret: true } : { name: h.name, value: h.value ?? '', secret: false })),
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    }
    if (draft.database) record.database = draft.database
    if (draft.auth.kind !== 'none') {
      // Left out = keep the saved secret; there must then be one to keep.
      const missing = draft.auth.secret === '' || (draft.auth.secret === undefined && (previous ? await this.secrets.get(secretKey(id, 'auth')) : undefined) === undefined)
      if (missing) throw new AppError('invalid_input', draft.auth.kind === 'api-key' ? 'Enter the API key' : 'Enter the token')
    }
    await saveInOrder({
      secrets: async () => {
        if (draft.auth.kind !== 'none' && draft.auth.secret) await this.secrets.set(secretKey(id, 'auth'), draft.auth.secret)
        for (const h of draft.headers) {
          if (!isSecretHeader(h) || h.value === undefined) continue
          if (h.value === '') await this.secrets.delete(secretKey(id, { header: h.name }))
          else await this.secrets.set(secretKey(id, { header: h.name }), h.value)
        }
      },
      record: () => this.records.save(previous ? all.map((c) => (c.id === id ? record : c)) : [...all, record]),
      // Auth turned off, a header removed or made public.
      stale: async () => {
        if (!previous) return
        if (record.auth === 'none') await this.secrets.delete(secretKey(id, 'auth'))
        const stillSecret = new Set(record.headers.filter((h) => h.secret).map((h) => h.name.toLowerCase()))
        for (const h of previous.headers) if (isSecretHeader(h) && !stillSecret.has(h.name.toLowerCase())) await this.secrets.delete(secretKey(id, { header: h.name }))
      },
    })
    return this.view(record)
  }

  async remove(id: string): Promise<void> {
    const all = await this.records.load()
    const found = all.find((c) => c.id === id)
    if (!found) return
    await this.records.save(all.filter((c) => c.id !== id))
    await this.secrets.delete(secretKey(id, 'auth'))
    for (const h of found.headers) if (isSecretHeader(h)) await this.secrets.delete(secretKey(id, { header: h.name }))
  }

  /**
   * Properties of an unsaved draft (for "Test connection" before saving). A secret left out of the
   * draft falls back to the one saved under `draft.id`, so editing a connection can be tested as is.
   */
  async draftProperties(rawDraft: unknown): Promise<Record<string, string>> {
    const draft = parseDraft(rawDraft)
    const saved = draft.id ? (await this.records.load()).find((c) => c.id === draft.id) : undefined
    const authSecret = draft.auth.kind === 'none' ? undefined : (draft.auth.secret ?? (saved ? await this.secrets.get(secretKey(saved.id, 'auth')) : undefined))
    const properties = baseProperties(draft.endpoint.replace(/\/+$/, ''), draft.auth.kind, authSecret, draft.database)
    for (const h of draft.headers) {
      const value = h.value ?? (saved && isSecretHeader(h) ? await this.secrets.get(secretKey(saved.id, { header: h.name })) : undefined)
      if (value !== undefined) properties[`headers.${h.name}`] = value
    }
    return properties
  }

  /** `connectNamespace('rest', …)` properties with secrets (main only); pass the record when it is already loaded. */
  async properties(connection: string | SavedConnection): Promise<Record<string, string>> {
    return connectionProperties(typeof connection === 'string' ? await this.get(connection) : connection, this.secrets)
  }
}

/**
 * The save order of every kind of saved connection. Secrets first: if one fails, the record on disk still
 * describes the old, complete state. Then the record. Secrets it no longer names are dropped only once the record
 * is safe, so a crash in between leaves an unused secret, never a record pointing at a missing one.
 */
export async function saveInOrder(steps: { secrets: () => Promise<void>; record: () => Promise<void>; stale: () => Promise<void> }): Promise<void> {
  await steps.secrets()
  await steps.record()
  await steps.stale()
}

/**
 * Open a saved connection: `connectNamespace('rest', …)` with its secrets. Failing to connect changes
 * nothing that is saved. Pass the result to the service's `addConnection('rest', view.name, view.endpoint, client)`.
 */
export async function connectSaved(
  store: ConnectionStore,
  id: string,
  connect: (properties: Record<string, string>) => Promise<NamespaceClient>,
): Promise<{ client: NamespaceClient; view: ConnectionView }> {
  const saved = await store.get(id)
  const client = await connect(await store.properties(saved))
  return { client, view: await store.view(saved) }
}

/** Parse a draft from the renderer; the error lists every field that is wrong. */
function parseDraft(rawDraft: unknown): ReturnType<typeof connectionDraftSchema.parse> {
  const parsed = connectionDraftSchema.safeParse(rawDraft)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'connection'}: ${i.message}`).join('; ')
    throw new AppError('invalid_input', `The connection is not valid: ${issues}`)
  }
  return parsed.data
}
