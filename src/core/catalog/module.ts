import type { Input, Output, TableViewSpec } from '../../contract'
import type { NamespaceClient } from '../namespace/client'

export interface CatalogDeps {
  client(connectionId: string): NamespaceClient
  /** Run `work` with an AbortSignal that `requests/cancel` can trigger. */
  cancellable<T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T>
}

type CatalogMethod =
  | 'namespaces/list' | 'namespaces/create' | 'namespaces/drop'
  | 'tables/list' | 'tables/describe' | 'tables/page' | 'tables/drop' | 'tables/rename'

/**
 * Browsing and the plain writes of a catalog, whatever its engine: listing namespaces and tables, describing a
 * table and reading its pages, making and dropping namespaces, dropping and renaming tables. Each answer is the
 * connection's own NamespaceClient's; the engine decides how (src/core/namespace/{dir,rest}).
 */
export class CatalogModule {
  constructor(private readonly deps: CatalogDeps) {}

  readonly handlers: { [M in CatalogMethod]: (input: Input<M>) => Promise<Output<M>> } = {
    'namespaces/list': async ({ connectionId, namespace, pageToken, limit, requestId }) =>
      this.deps.cancellable(requestId, (signal) => this.deps.client(connectionId).listNamespaces(namespace, { pageToken, limit, signal })),
    'tables/list': async ({ connectionId, namespace, pageToken, limit, requestId }) =>
      this.deps.cancellable(requestId, (signal) => this.deps.client(connectionId).listTables(namespace, { pageToken, limit, signal })),
    'tables/describe': async ({ connectionId, namespace, name, version }) => {
      // Pins the described version for the pages that follow, and lists the indexes (src/core/query).
      const d = await this.deps.client(connectionId).describeTable({ namespace, name }, { version, indexes: true })
      return {
        name: d.name,
        namespace: d.namespace,
        rowCount: d.rowCount,
        version: d.version,
        schema: d.fields,
        ...(d.latestVersion !== undefined ? { latestVersion: d.latestVersion } : {}),
        ...(d.indexes ? { indexes: d.indexes } : {}),
      }
    },
    'tables/page': async ({ connectionId, namespace, name, offset, limit, columns, view, requestId, version }) =>
      this.deps.cancellable(requestId, (signal) =>
        this.deps.client(connectionId).readPage({ namespace, name }, { offset, limit, columns, view: view && version !== undefined && view.version === undefined ? { ...(view as TableViewSpec), version } : (view as TableViewSpec | undefined), signal, version }),
      ),
    'namespaces/create': async ({ connectionId, namespace, properties }) => {
      await this.deps.client(connectionId).createNamespace(namespace, { mode: 'create', properties })
      return null
    },
    'namespaces/drop': async ({ connectionId, namespace, cascade }) => {
      await this.deps.client(connectionId).dropNamespace(namespace, { behavior: cascade ? 'cascade' : 'restrict' })
      return null
    },
    'tables/drop': async ({ connectionId, namespace, name }) => {
      await this.deps.client(connectionId).dropTable({ namespace, name })
      return null
    },
    'tables/rename': async ({ connectionId, namespace, name, newName, newNamespace }) => {
      await this.deps.client(connectionId).renameTable({ namespace, name }, newName, { newNamespace })
      return null
    },
  }
}
