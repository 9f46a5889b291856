import { AppError, type Input, type Output } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { connectNamespace } from '../namespace/connect'
import { RestNamespaceClient, verifyConnection } from '../namespace/rest'
import { DirNamespaceClient } from '../namespace/dir'
import type { ConnectionView } from './model'
import type { KindInput, OpenTarget, SavedConnectionKind } from './saved'
import { connectSaved, type ConnectionStore } from './store'

/**
 * Saved REST connections, one kind of {@link SavedConnectionsModule}: opening them with their secrets, "Test
 * connection". A failed open or test never changes a saved connection.
 */
export class RestConnectionKind implements SavedConnectionKind<'rest'> {
  constructor(
    private readonly store: ConnectionStore,
    /** Runs `work` with an AbortSignal that `requests/cancel` can trigger. */
    private readonly cancellable: <T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>) => Promise<T>,
  ) {}

  list = () => this.store.list()
  save = (draft: unknown) => this.store.save(draft)
  remove = (id: string) => this.store.remove(id)

  async open(id: string) {
    const { client, view } = await connectSaved(this.store, id, (properties) => connectNamespace('rest', properties))
    await firstRequest(client)
    return { client, view }
  }

  async openDraft({ draft }: KindInput<'connections/saved/connect', 'rest'>) {
    const client = await connectNamespace('rest', await this.store.draftProperties(draft))
    await firstRequest(client)
    return client
  }

  async test({ id, draft, write, requestId }: KindInput<'connections/saved/test', 'rest'>) {
    if (!id && !draft) throw new AppError('invalid_input', 'Nothing to test: give a saved connection or the form')
    const properties = draft ? await this.store.draftProperties({ ...draft, id: draft.id ?? id }) : await this.store.properties(id!)
    const client = (await connectNamespace('rest', properties)) as RestNamespaceClient
    try {
      return await this.cancellable(requestId, (signal) => verifyConnection(client, { write, signal }))
    } finally {
      await client.close()
    }
  }

  target = (view: ConnectionView): OpenTarget => ({ engine: 'rest', label: view.name, location: view.endpoint })
}

/** What a connection's engine turned out not to support: the capability map of the contract. */
export function capabilityHandlers(client: (connectionId: string) => NamespaceClient) {
  return {
    'connections/capabilities': async ({ connectionId }: Input<'connections/capabilities'>): Promise<Output<'connections/capabilities'>> => {
      // Each engine answers for itself: a REST server its own map, a dir catalog what object storage cannot do
      // (null on a local disk: everything works).
      const open = client(connectionId)
      return open instanceof RestNamespaceClient ? open.capabilities.snapshot() : open instanceof DirNamespaceClient ? open.capabilities() : null
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
