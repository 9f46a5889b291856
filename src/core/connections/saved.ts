import type { ConnectionInfo, Input, Output, SavedKind } from '../../contract'
import type { NamespaceClient } from '../namespace/client'

type SavedMethod = 'connections/saved/list' | 'connections/saved/save' | 'connections/saved/delete' | 'connections/saved/open' | 'connections/saved/connect' | 'connections/saved/test'

/** The input of `method` for one kind. */
export type KindInput<M extends SavedMethod, K extends SavedKind> = Extract<Input<M>, { kind: K }>
type View<K extends SavedKind> = Extract<Output<'connections/saved/list'>[number], { kind: K }>

/** Where an opened saved connection sits in the tree: which engine, its label and its location. */
export interface OpenTarget {
  engine: ConnectionInfo['kind']
  label: string
  location: string
}

/**
 * One kind of saved connection (REST servers, object stores) behind the one method family: its own records
 * file and secret keys, its own way to open a client. The shared steps — an already-open connection answered
 * as it is, "Save & connect" saving only after the client opened — are {@link SavedConnectionsModule}'s.
 */
export interface SavedConnectionKind<K extends SavedKind> {
  list(): Promise<View<K>[]>
  /** Create or update from a draft (parsed here). Secrets first, then the record, then stale secrets dropped. */
  save(draft: unknown): Promise<View<K>>
  remove(id: string): Promise<void>
  /** Open a client for the saved connection (its secrets from the secret store). Fails changing nothing. */
  open(id: string): Promise<{ client: NamespaceClient; view: View<K> }>
  /** Open a client with the form's values, before anything is saved. */
  openDraft(input: KindInput<'connections/saved/connect', K>): Promise<NamespaceClient>
  test(input: KindInput<'connections/saved/test', K>): Promise<Output<'connections/saved/test'>>
  /** Where the opened connection sits in the tree. */
  target(view: View<K>): OpenTarget
}

export interface SavedConnectionsHost {
  addConnection(kind: ConnectionInfo['kind'], label: string, location: string, client: NamespaceClient, savedId?: string): ConnectionInfo
  openConnections(): ConnectionInfo[]
}

/**
 * Saved connections, one method family for both kinds: each call names its `kind` and goes to that kind's
 * store. A failed open, connect or test never changes what is saved, and no answer carries a secret.
 */
export class SavedConnectionsModule {
  constructor(
    private readonly kinds: { [K in SavedKind]: SavedConnectionKind<K> },
    private readonly host: SavedConnectionsHost,
  ) {}

  private kind<K extends SavedKind>(kind: K): SavedConnectionKind<K> {
    return this.kinds[kind] as SavedConnectionKind<K>
  }

  // The `as never` casts below: TypeScript cannot see that an input of kind K goes to the store of kind K (the
  // union is narrowed by `kind`, the store's type is not); the zod schema of each method has checked the pair.
  readonly handlers: { [M in SavedMethod]: (input: Input<M>) => Promise<Output<M>> } = {
    'connections/saved/list': async () => [...(await this.kinds.rest.list()), ...(await this.kinds['object-store'].list())],
    'connections/saved/save': async ({ kind, draft }) => this.kind(kind).save(draft),
    'connections/saved/delete': async ({ kind, id }) => {
      await this.kind(kind).remove(id)
      return null
    },
    'connections/saved/open': async ({ kind, id }) => {
      const already = this.host.openConnections().find((c) => c.savedId === id)
      if (already) return already
      const store = this.kind(kind)
      const { client, view } = await store.open(id)
      const target = store.target(view)
      return this.host.addConnection(target.engine, target.label, target.location, client, view.id)
    },
    'connections/saved/connect': async (input) => {
      // Connect with the form's values first (a secret left out is the saved one), and save only once it answered.
      const store = this.kind(input.kind) as SavedConnectionKind<SavedKind>
      const client = await store.openDraft(input as never)
      let view
      try {
        view = await store.save(input.draft)
      } catch (error) {
        await client.close()
        throw error
      }
      const already = this.host.openConnections().find((c) => c.savedId === view.id)
      if (already) {
        await client.close()
        return { view, connection: already }
      }
      const target = store.target(view as never)
      return { view, connection: this.host.addConnection(target.engine, target.label, target.location, client, view.id) }
    },
    'connections/saved/test': async (input) => (this.kind(input.kind) as SavedConnectionKind<SavedKind>).test(input as never),
  }
}
