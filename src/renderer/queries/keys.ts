import type { TableRef } from '../../contract'

/**
 * A namespace path as one key part. Not an array: the cache matches array parts partially (the key of `a` would
 * also match `a/b`), and a write to a table must not make a same-named table in a child namespace stale.
 */
export const namespacePart = (namespace: readonly string[]) => JSON.stringify(namespace)
/** The namespace path a `namespacePart` holds. */
export const namespaceOfPart = (part: string) => JSON.parse(part) as string[]

/**
 * The query cache's key scopes: every read the renderer makes is filed under one of these, keyed by what it reads.
 * Each feature builds its queries (`features/<feature>/queries.ts`) under its scope; the rules of what a write
 * invalidates (invalidate.ts) only need the scopes.
 */
export const keys = {
  appInfo: ['app', 'info'] as const,
  /** Every job of the session (`jobs/list`), kept current by `jobs/progress` events. */
  jobs: ['jobs'] as const,
  /** The open connections. */
  connections: ['connections', 'open'] as const,
  recents: ['connections', 'recent'] as const,
  /** What the connection's catalog can and cannot do (one snapshot per connection). */
  capabilities: (connectionId: string) => ['connections', 'capabilities', connectionId] as const,
  /** Everything the tree lists of one connection. */
  tree: (connectionId: string) => ['tree', connectionId] as const,
  /** What one namespace holds (its namespaces and tables, every page). */
  listing: (connectionId: string, namespace: readonly string[]) => ['tree', connectionId, namespacePart(namespace)] as const,
  /** What a namespace holds at any depth (what dropping it with its contents deletes). */
  contents: (connectionId: string, namespace: readonly string[]) => ['namespace', connectionId, namespacePart(namespace), 'contents'] as const,
  /** A namespace's description (its properties). */
  namespace: (connectionId: string, namespace: readonly string[]) => ['namespace', connectionId, namespacePart(namespace), 'describe'] as const,
  /** Saved REST servers and object stores (the start screen's list, the "+" menu). */
  saved: ['connections', 'saved'] as const,
  /** Everything about one table: its descriptions, first pages, counts, latest version, lifecycle lists. */
  table: (ref: TableRef) => ['table', ref.connectionId, namespacePart(ref.namespace), ref.name] as const,
  /** Everything about the tables of one connection. */
  tables: (connectionId: string) => ['table', connectionId] as const,
  /** The data file formats of a connection's tables (under `tables`: a write that makes tables stale makes it stale). */
  dataFormats: (connectionId: string) => ['table', connectionId, 'data-formats'] as const,
  /** A catalog's SQL query history (`sql/history/list`). */
  sqlHistory: (connectionId: string) => ['sql', connectionId, 'history'] as const,
  /** Everything read of one kept SQL query (its status and pages). */
  sqlQuery: (queryId: string) => ['sql', 'query', queryId] as const,
}
