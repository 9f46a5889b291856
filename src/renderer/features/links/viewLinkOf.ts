import type { ConnectionInfo, SortKey, TableRef } from '../../../contract'
import { catalogLocation, encodeViewLink, linkCatalog, type LinkCatalog } from '../../../contract/viewLink'

/** What a table view shows, as a link names it. */
export interface LinkedView {
  version?: number
  filter?: string
  sort?: SortKey[]
  /** The selected row's position in the view (0-based). */
  row?: number
}

/** The link to `ref`'s view in `connection` (throws the link's refusal in words, e.g. a location with a secret). */
export function viewLinkOf(connection: ConnectionInfo, ref: TableRef, view: LinkedView): string {
  return encodeViewLink({ catalog: linkCatalog(connection.kind, connection.location), namespace: [...ref.namespace], table: ref.name, ...view })
}

/** A location as links compare them: a trailing slash (or backslash) does not make another catalog. */
function comparable(location: string): string {
  return location.length > 1 ? location.replace(/[\\/]+$/, '') : location
}

/** The open catalog a link names: the same kind and location (a REST catalog by its endpoint), else undefined. */
export function matchingConnection(connections: readonly ConnectionInfo[], catalog: LinkCatalog): ConnectionInfo | undefined {
  const wanted = comparable(catalogLocation(catalog))
  return connections.find((c) => {
    const theirs = linkCatalog(c.kind, c.location)
    return theirs.kind === catalog.kind && comparable(catalogLocation(theirs)) === wanted
  })
}

/** The catalog in words, for "Connect to …?". */
export function describeCatalog(catalog: LinkCatalog): string {
  if (catalog.kind === 'rest') return `the REST catalog at ${catalog.endpoint}`
  if (catalog.kind === 'uri') return `the object-store catalog at ${catalog.uri}`
  return `the catalog directory ${catalog.path}`
}
