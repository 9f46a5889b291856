import { AppError, type Input, type Output } from '../../contract'
import { isSecretStorageKey, type StorageOptions } from '../../contract/objectStore'
import type { NamespaceClient } from '../namespace/client'
import { createCatalogHere } from '../namespace/dir/createCatalog'
import { DirNamespaceClient } from '../namespace/dir'
import { toAppError } from '../errors'
import type { RemoteConnectionsHost } from './module'
import type { ObjectStoreConnectionStore } from './objectStoreStore'
import { MASK, redactError } from '../redact'

type ObjectStoreMethod =
  | 'connections/objectStore/list'
  | 'connections/objectStore/save'
  | 'connections/objectStore/delete'
  | 'connections/objectStore/open'
  | 'connections/objectStore/connect'
  | 'connections/objectStore/test'

/** Root listing size of "Test" (it counts what is there, it does not walk the catalog). */
const TEST_LIST_LIMIT = 100

/**
 * Object-store catalogs (`s3://`, `gs://`, `az://`, `file://`) saved beside the REST servers: saving, opening
 * them as directory catalogs with their storage options, "Test", and what they cannot do. A failed open or test
 * never changes what is saved, and no error carries a secret option's value.
 */
export class ObjectStoreConnectionsModule {
  constructor(
    private readonly store: ObjectStoreConnectionStore,
    private readonly host: Pick<RemoteConnectionsHost, 'addConnection' | 'openConnections'> & {
      /** Whether the saved connection's Read-only switch is on (then opening writes nothing, recovery included). */
      readOnly?: (savedId: string, uri: string) => Promise<boolean>
    },
  ) {}

  readonly handlers: { [M in ObjectStoreMethod]: (input: Input<M>) => Promise<Output<M>> } = {
    'connections/objectStore/list': async () => this.store.list(),
    'connections/objectStore/save': async ({ draft }) => this.store.save(draft),
    'connections/objectStore/delete': async ({ id }) => {
      await this.store.remove(id)
      return null
    },
    'connections/objectStore/open': async ({ id }) => {
      const already = this.host.openConnections().find((c) => c.savedId === id)
      if (already) return already
      const saved = await this.store.get(id)
      const readOnly = (await this.host.readOnly?.(saved.id, saved.uri)) ?? false
      const client = await openObjectStore(saved.uri, await this.store.storageOptions(saved), { recover: !readOnly })
      return this.host.addConnection('dir', saved.name, saved.uri, client, saved.id)
    },
    'connections/objectStore/connect': async ({ draft, create }) => {
      // Open with the form's values first; save only once the catalog opened (a wrong key saves nothing).
      const target = await this.store.draftTarget(draft)
      const client = await openObjectStore(target.uri, target.storageOptions, { create })
      let saved
      try {
        saved = await this.store.save(draft)
      } catch (error) {
        await client.close()
        throw error
      }
      const already = this.host.openConnections().find((c) => c.savedId === saved.id)
      if (already) {
        await client.close()
        return { view: saved, connection: already }
      }
      return { view: saved, connection: this.host.addConnection('dir', saved.name, saved.uri, client, saved.id) }
    },
    'connections/objectStore/test': async ({ id, draft }) => {
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
    },
  }
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
