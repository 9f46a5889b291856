import { AppError, type ObjectStoreConnectionView, type ObjectStoreTestReport } from '../../contract'
import { isSecretStorageKey, type StorageOptions } from '../../contract/objectStore'
import type { NamespaceClient } from '../namespace/client'
import { createCatalogHere } from '../namespace/dir/createCatalog'
import { DirNamespaceClient } from '../namespace/dir'
import { toAppError } from '../errors'
import { view, type ObjectStoreConnectionStore } from './objectStoreStore'
import type { KindInput, OpenTarget, SavedConnectionKind } from './saved'
import { MASK, redactError } from '../redact'

/** Root listing size of "Test" (it counts what is there, it does not walk the catalog). */
const TEST_LIST_LIMIT = 100

/**
 * Object-store catalogs (`s3://`, `gs://`, `az://`, `file://`), one kind of {@link SavedConnectionsModule}: opened
 * as directory catalogs with their storage options, "Test". A failed open or test never changes what is saved,
 * and no error carries a secret option's value.
 */
export class ObjectStoreConnectionKind implements SavedConnectionKind<'object-store'> {
  constructor(
    private readonly store: ObjectStoreConnectionStore,
    /** Whether the saved connection's Read-only switch is on (then opening writes nothing, recovery included). */
    private readonly readOnly?: (savedId: string, uri: string) => Promise<boolean>,
  ) {}

  list = () => this.store.list()
  save = (draft: unknown) => this.store.save(draft)
  remove = (id: string) => this.store.remove(id)

  async open(id: string) {
    const saved = await this.store.get(id)
    const readOnly = (await this.readOnly?.(saved.id, saved.uri)) ?? false
    const client = await openObjectStore(saved.uri, await this.store.storageOptions(saved), { recover: !readOnly })
    return { client, view: view(saved) }
  }

  async openDraft({ draft, create }: KindInput<'connections/saved/connect', 'object-store'>) {
    const target = await this.store.draftTarget(draft)
    return openObjectStore(target.uri, target.storageOptions, { create })
  }

  async test({ id, draft }: KindInput<'connections/saved/test', 'object-store'>): Promise<ObjectStoreTestReport> {
    if (!id && !draft) throw new AppError('invalid_input', 'Nothing to test: give a saved connection or the form')
    const target = draft
      ? await this.store.draftTarget({ ...draft, id: draft.id ?? id })
      : await this.store.get(id!).then(async (saved) => ({ uri: saved.uri, storageOptions: await this.store.storageOptions(saved) }))
    const started = performance.now()
    // A test only looks: it never recovers what a crashed writer left (a `file://` catalog).
    const client = await openObjectStore(target.uri, target.storageOptions, { recover: false })
    try {
      const [namespaces, tables] = await guard(
        () => Promise.all([client.listNamespaces([], { limit: TEST_LIST_LIMIT }), client.listTables([], { limit: TEST_LIST_LIMIT })]),
        target.storageOptions,
      )
      return {
        namespaces: namespaces.items.length,
        tables: tables.items.length,
        more: namespaces.pageToken !== undefined || tables.pageToken !== undefined,
        ms: performance.now() - started,
      }
    } finally {
      await client.close()
    }
  }

  target = (saved: ObjectStoreConnectionView): OpenTarget => ({ engine: 'dir', label: saved.name, location: saved.uri })
}

/**
 * Open a directory catalog at an object-store URI (or `file://`) with its storage options, then make one cheap
 * request so a wrong key or a missing container is reported now, in words, not as an empty tree.
 */
export async function openObjectStore(
  uri: string,
  storageOptions: StorageOptions,
  { recover = true, create = false }: { recover?: boolean; create?: boolean } = {},
): Promise<NamespaceClient> {
  // `create`: only an empty prefix becomes a catalog (createCatalogHere refuses anything else before writing).
  const client = await guard(() => (create ? createCatalogHere(uri, { storageOptions }) : DirNamespaceClient.open(uri, { storageOptions, recover })), storageOptions)
  try {
    await guard(() => client.listNamespaces([], { limit: 1 }), storageOptions)
  } catch (error) {
    await client.close()
    throw error
  }
  return client
}

/** Run `work`; a failure becomes an AppError whose message, detail and hint carry no secret option's value. */
async function guard<T>(work: () => Promise<T>, storageOptions: StorageOptions): Promise<T> {
  try {
    return await work()
  } catch (error) {
    throw redactStoreError(error, storageOptions)
  }
}

/** `error` as an AppError free of the secret options' values (and of their JSON parts) and of URL signatures. */
export function redactStoreError(error: unknown, storageOptions: StorageOptions): AppError {
  const secrets = Object.entries(storageOptions)
    .filter(([key]) => isSecretStorageKey(key))
    .flatMap(([, value]) => [value, ...jsonSecretParts(value)])
  return scrubSignatures(redactError(toAppError(error), secrets))
}

/** Signed-URL parameters a store's error may quote in a request URL (a SAS `sig`, AWS presigned fields). */
const SIGNED_PARAMS = /([?&](?:sig|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential)=)[^&\s"'<>]+/gi

/** Mask signature parameters in the message, detail and hint, whatever secret they were derived from. */
function scrubSignatures<E extends Error>(error: E): E {
  const e = error as E & { detail?: string; hint?: string }
  e.message = e.message.replace(SIGNED_PARAMS, `$1${MASK}`)
  for (const field of ['detail', 'hint'] as const) {
    const value = e[field]
    if (typeof value === 'string') Object.defineProperty(e, field, { value: value.replace(SIGNED_PARAMS, `$1${MASK}`), writable: true, configurable: true, enumerable: true })
  }
  return error
}

/** A GCS service-account JSON's private key and key id, which an error could quote on their own. */
function jsonSecretParts(value: string): string[] {
  if (!value.trimStart().startsWith('{')) return []
  try {
    const parsed = JSON.parse(value) as Record<string, unknown>
    return ['private_key', 'private_key_id'].map((k) => parsed[k]).filter((v): v is string => typeof v === 'string')
  } catch {
    return []
  }
}
