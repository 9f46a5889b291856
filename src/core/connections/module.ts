import { AppError, type ConnectionInfo, type Input, type Output } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { connectNamespace } from '../namespace/connect'
import { RestNamespaceClient, verifyConnection } from '../namespace/rest'
import { DirNamespaceClient } from '../namespace/dir'
import { connectSaved, type ConnectionStore } from './store'

type ConnectionMethod =
  | 'connections/saved/list'
  | 'connections/saved/save'
  | 'connections/saved/delete'
  | 'connections/saved/open'
  | 'connections/saved/connect'
  | 'connections/test'
  | 'connections/capabilities'

export interface RemoteConnectionsHost {
  /** Register an open client as a root of the tree. */
  addConnection(kind: ConnectionInfo['kind'], label: string, location: string, client: NamespaceClient, savedId?: string): ConnectionInfo
  /** An open connection's client (throws not_found when closed). */
  client(connectionId: string): NamespaceClient
  openConnections(): ConnectionInfo[]
  /** Runs `work` with an AbortSignal that `requests/cancel` can trigger. */
  cancellable<T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T>
}

/**
 * The REST half of the contract: saved connections, opening them, "Test connection" and the
 * capability map. A failed open or test never changes a saved connection.
 */
export class RemoteConnectionsModule {
  constructor(
    private readonly store: ConnectionStore,
    private readonly host: RemoteConnectionsHost,
  ) {}

  readonly handlers: { [M in ConnectionMethod]: (input: Input<M>) => Promise<Output<M>> } = {
    'connections/saved/list': async () => this.store.list(),
    'connections/saved/save': async ({ draft }) => this.store.save(draft),
    'connections/saved/delete': async ({ id }) => {
      await this.store.remove(id)
      return null
    },
    'connections/saved/open': async ({ id }) => {
      const already = this.host.openConnections().find((c) => c.savedId === id)
      if (already) return already
      const { client, view } = await connectSaved(this.store, id, (properties) => connectNamespace('rest', properties))
      await firstRequest(client)
      return this.host.addConnection('rest', view.name, view.endpoint, client, view.id)
    },
    'connections/saved/connect': async ({ draft }) => {
      // Connect with the form's values (a secret left out is the saved one), and save only once the server answered.
      const client = await connectNamespace('rest', await this.store.draftProperties(draft))
      await firstRequest(client)
      let view
      try {
        view = await this.store.save(draft)
      } catch (error) {
        await client.close()
        throw error
      }
      const already = this.host.openConnections().find((c) => c.savedId === view.id)
      if (already) {
        await client.close()
        return { view, connection: already }
      }
      return { view, connection: this.host.addConnection('rest', view.name, view.endpoint, client, view.id) }
    },
    'connections/test': async ({ id, draft, write, requestId }) => {
      if (!id && !draft) throw new AppError('invalid_input', 'Nothing to test: give a saved connection or the form')
      const properties = draft ? await this.store.draftProperties({ ...draft, id: draft.id ?? id }) : await this.store.properties(id!)
      const client = (await connectNamespace('rest', properties)) as RestNamespaceClient
      try {
        return await this.host.cancellable(requestId, (signal) => verifyConnection(client, { write, signal }))
      } finally {
        await client.close()
      }
    },
    'connections/capabilities': async ({ connectionId }) => {
      // Each engine answers for itself: a REST server its own map, a dir catalog what object storage cannot do
      // (null on a local disk: everything works).
      const client = this.host.client(connectionId)
      return client instanceof RestNamespaceClient ? client.capabilities.snapshot() : client instanceof DirNamespaceClient ? client.capabilities() : null
    },
  }
}

/** A cheap first request, so a wrong key or a dead server is reported at once, in words, not as an empty tree. */
async function firstRequest(client: NamespaceClient): Promise<void> {
  try {
    await client.listNamespaces([], { limit: 1 })
  } catch (error) {
    await client.close()
    throw error
  }
}
