import { randomUUID } from 'node:crypto'
import { AppError } from '../../contract'
import { objectStoreDraftSchema, type ObjectStoreConnectionView } from '../../contract/connections'
import { isSecretStorageKey, type StorageOptions } from '../../contract/objectStore'
import type { SecretStore } from './model'
import { saveInOrder, type ConnectionRecords } from './store'

/**
 * Saved object-store catalogs. On disk (a {@link SavedObjectStore}) only the URI and the options that are not
 * secret; secret options (keys, SAS tokens, session tokens, service-account JSON: `isSecretStorageKey`) live in
 * the same {@link SecretStore} as REST API keys, one entry per option. The renderer's view names the saved
 * secrets, never their values.
 */
export interface SavedObjectStore {
  id: string
  name: string
  uri: string
  /** Options that are not secret, as given. */
  options: StorageOptions
  /** Keys of the secret options kept in the SecretStore. */
  secrets: string[]
  createdAt: number
  updatedAt: number
}

type ParsedDraft = ReturnType<typeof objectStoreDraftSchema.parse>

/** Where secret option `key` of saved catalog `id` is kept. */
export function objectStoreSecretKey(id: string, key: string): string {
  return `object-store/${id}/${key.toLowerCase()}`
}

export class ObjectStoreConnectionStore {
  constructor(
    private readonly records: ConnectionRecords<SavedObjectStore>,
    private readonly secrets: SecretStore,
    private readonly now: () => number = Date.now,
  ) {}

  async list(): Promise<ObjectStoreConnectionView[]> {
    return (await this.records.load()).map(view)
  }

  async get(id: string): Promise<SavedObjectStore> {
    const found = (await this.records.load()).find((c) => c.id === id)
    if (!found) throw new AppError('not_found', 'This saved connection no longer exists')
    return found
  }

  /** Create or update from a draft (unknown input: parsed here). Secrets are written before the record. */
  async save(rawDraft: unknown): Promise<ObjectStoreConnectionView> {
    const draft = parseObjectStoreDraft(rawDraft)
    const all = await this.records.load()
    const previous = draft.id ? all.find((c) => c.id === draft.id) : undefined
    if (draft.id && !previous) throw new AppError('not_found', 'This saved connection no longer exists')
    const id = previous?.id ?? randomUUID()
    const { plain, secret } = splitOptions(draft.options)
    const kept = draft.keep.map((k) => k.toLowerCase()).filter((k) => previous?.secrets.includes(k) && !(k in secret))
    const now = this.now()
    const record: SavedObjectStore = {
      id,
      name: draft.name,
      uri: draft.uri,
      options: plain,
      secrets: [...new Set([...kept, ...Object.keys(secret)])].sort(),
      createdAt: previous?.createdAt ?? now,
      updatedAt: now,
    }
    await saveInOrder({
      secrets: async () => {
        for (const [key, value] of Object.entries(secret)) await this.secrets.set(objectStoreSecretKey(id, key), value)
      },
      record: () => this.records.save(previous ? all.map((c) => (c.id === id ? record : c)) : [...all, record]),
      stale: async () => {
        for (const key of previous?.secrets ?? []) if (!record.secrets.includes(key)) await this.secrets.delete(objectStoreSecretKey(id, key))
      },
    })
    return view(record)
  }

  async remove(id: string): Promise<void> {
    const all = await this.records.load()
    const found = all.find((c) => c.id === id)
    if (!found) return
    await this.records.save(all.filter((c) => c.id !== id))
    for (const key of found.secrets) await this.secrets.delete(objectStoreSecretKey(id, key))
  }

  /** The full storage options of a saved catalog, secrets included (main only: never logs, never the renderer). */
  async storageOptions(saved: SavedObjectStore): Promise<StorageOptions> {
    const options: StorageOptions = { ...saved.options }
    for (const key of saved.secrets) {
      const value = await this.secrets.get(objectStoreSecretKey(saved.id, key))
      if (value !== undefined) options[key] = value
    }
    return options
  }

  /**
   * The URI and storage options of an unsaved draft (Test, Save & connect). Secrets named in `keep` come from
   * the catalog saved under `draft.id`, so an edited connection can be tested as it stands.
   */
  async draftTarget(rawDraft: unknown): Promise<{ uri: string; storageOptions: StorageOptions; draft: ParsedDraft }> {
    const draft = parseObjectStoreDraft(rawDraft)
    const storageOptions: StorageOptions = {}
    for (const [key, value] of Object.entries(draft.options)) if (value !== '') storageOptions[key.toLowerCase()] = value
    const saved = draft.id ? (await this.records.load()).find((c) => c.id === draft.id) : undefined
    for (const key of draft.keep.map((k) => k.toLowerCase())) {
      if (key in storageOptions || !saved?.secrets.includes(key)) continue
      const value = await this.secrets.get(objectStoreSecretKey(saved.id, key))
      if (value !== undefined) storageOptions[key] = value
    }
    return { uri: draft.uri, storageOptions, draft }
  }
}

/** The renderer's view: non-secret options and the names of the saved secrets. */
export function view(saved: SavedObjectStore): ObjectStoreConnectionView {
  return {
    kind: 'object-store',
    id: saved.id,
    name: saved.name,
    uri: saved.uri,
    options: { ...saved.options },
    secrets: [...saved.secrets],
    createdAt: saved.createdAt,
    updatedAt: saved.updatedAt,
  }
}

/** Options split by secrecy; keys lower-cased (object_store's keys are case-insensitive); empty values dropped. */
function splitOptions(options: StorageOptions): { plain: StorageOptions; secret: StorageOptions } {
  const plain: StorageOptions = {}
  const secret: StorageOptions = {}
  for (const [rawKey, value] of Object.entries(options)) {
    const key = rawKey.toLowerCase()
    if (value === '') continue
    if (isSecretStorageKey(key)) secret[key] = value
    else plain[key] = value
  }
  return { plain, secret }
}

/** Parse a draft from the renderer; the error lists every field that is wrong (never a value). */
export function parseObjectStoreDraft(rawDraft: unknown): ParsedDraft {
  const parsed = objectStoreDraftSchema.safeParse(rawDraft)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'connection'}: ${i.message}`).join('; ')
    throw new AppError('invalid_input', `The connection is not valid: ${issues}`)
  }
  return parsed.data
}
