import type { QueryClient } from '@tanstack/react-query'
import type { ConnectionInfo, Input, Output, TableRef } from '../../contract'
import type { WriteMethod } from '../../contract/methods'
import { putConnection, updateConnections } from './connectionList'
import { addJob } from './jobs'
import { keys } from './keys'

/**
 * What a write makes stale. A query on screen is read again at once; one not on screen is read again when next
 * asked for. Namespace listings are listed again even when collapsed: the filter and the context menu read them.
 */
export const invalidate = {
  /** A namespace gained or lost a table or a namespace. */
  listing: (client: QueryClient, connectionId: string, namespace: readonly string[]) =>
    client.invalidateQueries({ queryKey: keys.listing(connectionId, namespace), exact: true, refetchType: 'all' }),

  /** A table got a new version (an import into it, a restore, an index, a schema change): its description and every view of it. */
  table: (client: QueryClient, ref: TableRef) => client.invalidateQueries({ queryKey: keys.table(ref) }),

  /**
   * A table rewritten in place (a restore, an optimize, a schema change): everything cached about it is dropped, so
   * an open view shows "Opening…" and reads it afresh rather than showing the old columns while it re-reads.
   */
  tableRewritten: (client: QueryClient, ref: TableRef) => client.resetQueries({ queryKey: keys.table(ref) }),

  /** One lifecycle list of a table changed (its tags: the versions list; an index dropped: the indexes list). */
  tableList: (client: QueryClient, ref: TableRef, list: 'versions' | 'indexes' | 'stats') => client.invalidateQueries({ queryKey: [...keys.table(ref), list], exact: true }),

  /** A table was dropped or renamed away: nothing cached about it is true any more. */
  tableGone: (client: QueryClient, ref: TableRef) => client.removeQueries({ queryKey: keys.table(ref) }),

  /** Files imported into `ref` (a new table, or appended to / overwriting one): its namespace lists it, it shows the new version. */
  imported: (client: QueryClient, ref: TableRef) => Promise.all([invalidate.listing(client, ref.connectionId, ref.namespace), invalidate.table(client, ref)]),

  /** A write was refused as unsupported: the connection's client has learnt something about its server. */
  capabilities: (client: QueryClient, connectionId: string) => client.invalidateQueries({ queryKey: keys.capabilities(connectionId), refetchType: 'all' }),

  /** A catalog was opened (or its settings changed): the open connections list it as the core answered it. */
  connection: (client: QueryClient, connection: ConnectionInfo) => putConnection(client, connection),

  /** The saved connections changed (the start screen's list, the "+" menu). */
  saved: (client: QueryClient) => client.invalidateQueries({ queryKey: keys.saved }),
}

/** What one write makes stale, from its input and its answer. */
export type StaleRule<M extends WriteMethod> = (client: QueryClient, input: Input<M>, output: Output<M>) => unknown

const tableOf = (input: TableRef): TableRef => ({ connectionId: input.connectionId, namespace: input.namespace, name: input.name })
const parentOf = (namespace: readonly string[]) => namespace.slice(0, -1)
/** A write whose answer is a job: the job joins the session's list (its `jobs/progress` events keep it current). */
const jobStarted = (client: QueryClient, _input: unknown, job: Parameters<typeof addJob>[1]) => addJob(client, job)
/** A write that leaves nothing cached untrue; the comment at its entry says why. */
const nothing = () => undefined

/**
 * **The one place a write's staleness is decided**: one rule per write method of the contract (`WRITE_METHODS` in
 * src/contract/methods.ts; the type refuses a missing one). Each feature's `mutations.ts` runs the rule after its
 * write succeeds (`writeOptions` in ./write.ts). What happens on screen after a write — a selection moving, a
 * namespace expanding, a dialog closing — stays with the feature; what the cache no longer knows is said here.
 */
export const staleAfter: { [M in WriteMethod]: StaleRule<M> } = {
  // The host comes back with the same connections; its `host/status` event (running again) re-reads every cached
  // read (HostStatus.tsx), since a host restarted by main (after a crash) needs the same and no write precedes it.
  'app/restartHost': nothing,
  'connections/openDirectory': (client, _input, connection) => Promise.all([invalidate.connection(client, connection), client.invalidateQueries({ queryKey: keys.recents })]),
  'connections/createCatalog': (client, _input, connection) => Promise.all([invalidate.connection(client, connection), client.invalidateQueries({ queryKey: keys.recents })]),
  'connections/close': (client, { connectionId }) => updateConnections(client, (previous) => previous.filter((c) => c.id !== connectionId)),
  'connections/setReadOnly': (client, _input, connection) => invalidate.connection(client, connection),
  // The connection comes back without `pendingRecovery`. What the tree lists of it may have changed too (a finished
  // rename): the tree lists its loaded namespaces again (`refreshTree`, run by the recovery prompt's owner, since only
  // the tree knows which of them are expanded).
  'connections/recover': (client, _input, connection) => invalidate.connection(client, connection),
  'namespaces/create': (client, { connectionId, namespace }) => invalidate.listing(client, connectionId, parentOf(namespace)),
  'namespaces/drop': (client, { connectionId, namespace }) => invalidate.listing(client, connectionId, parentOf(namespace)),
  'tables/drop': (client, input) => Promise.all([invalidate.listing(client, input.connectionId, input.namespace), invalidate.tableGone(client, tableOf(input))]),
  // A rename may move the table to another namespace: both listings change.
  'tables/rename': (client, input) =>
    Promise.all([
      invalidate.listing(client, input.connectionId, input.namespace),
      invalidate.tableGone(client, tableOf(input)),
      input.newNamespace ? invalidate.listing(client, input.connectionId, input.newNamespace) : undefined,
    ]),
  'tables/createEmpty': (client, { connectionId, namespace }) => invalidate.listing(client, connectionId, namespace),
  // Saved connections of both kinds share one list.
  'connections/saved/save': (client) => invalidate.saved(client),
  'connections/saved/delete': (client) => invalidate.saved(client),
  // Open: the catalog joins the open connections. Connect: saved too ("Save & connect").
  'connections/saved/open': (client, _input, connection) => invalidate.connection(client, connection),
  'connections/saved/connect': (client, _input, { connection }) => Promise.all([invalidate.connection(client, connection), invalidate.saved(client)]),
  // The import job's end makes the table and its namespace stale (`invalidate.imported`, when the job is done).
  'import/start': jobStarted,
  // A staged upload nobody reads.
  'import/discardUpload': nothing,
  'versions/restore': (client, input) => invalidate.tableRewritten(client, tableOf(input)),
  'tags/create': (client, input) => invalidate.tableList(client, tableOf(input), 'versions'),
  'tags/delete': (client, input) => invalidate.tableList(client, tableOf(input), 'versions'),
  'indexes/create': (client, input) => invalidate.tableList(client, tableOf(input), 'indexes'),
  // The build's end lists the indexes again (the Indexes panel follows its job).
  'indexes/start': jobStarted,
  'indexes/drop': (client, input) => invalidate.tableList(client, tableOf(input), 'indexes'),
  'tables/optimize': (client, input) => invalidate.tableRewritten(client, tableOf(input)),
  'columns/add': (client, input) => invalidate.tableRewritten(client, tableOf(input)),
  'columns/alter': (client, input) => invalidate.tableRewritten(client, tableOf(input)),
  'columns/drop': (client, input) => invalidate.tableRewritten(client, tableOf(input)),
  // The job's record changes through its `jobs/progress` events, like every other change of a job.
  'jobs/cancel': nothing,
  'export/start': jobStarted,
  'profile/start': jobStarted,
  'diff/start': jobStarted,
  'map/start': jobStarted,
  // A new row set, named by the view that asks for it: nothing cached names it yet.
  'rowsets/create': nothing,
  // The remembered tabs are read once, when a catalog's tabs are restored (features/workbench); the screen is their truth after.
  'workbench/saveTabs': nothing,
}
