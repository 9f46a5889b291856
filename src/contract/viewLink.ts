import { componentProblem } from './component'
import type { SortKey } from './view'

/**
 * A link to a view: `lance-catalog://open?…` names a catalog (a directory path, an object-store URI or a REST
 * endpoint), a table in it, and what the view showed: a pinned version, filter, sort and the selected row. The
 * desktop app registers the scheme; the harness reads the same link from its URL's fragment.
 *
 * Links travel through chat and mail, so a link never carries a secret: a REST endpoint or object-store URI with
 * a user, a password or a query string is refused (keys live in the app's saved connections, never in a link),
 * and parsing is bounded (the whole link, each value, the number of parameters); unknown parameters are refused
 * rather than ignored, so a link made by a newer app says so instead of opening a different view.
 */

export const VIEW_LINK_SCHEME = 'lance-catalog:'
export const VIEW_LINK_PREFIX = 'lance-catalog://open?'
/** The longest link accepted: far above a real view (a filter of a few hundred characters), far below a DoS. */
export const MAX_LINK_LENGTH = 16_384
/** The longest filter a link carries (as the remembered tabs keep). */
export const MAX_LINK_FILTER = 10_000
/** The longest catalog location (a path, URI or endpoint). */
export const MAX_LINK_LOCATION = 2_048
export const MAX_LINK_SORT = 8
const MAX_PARAMS = 100

export type LinkCatalog = { kind: 'dir'; path: string } | { kind: 'uri'; uri: string } | { kind: 'rest'; endpoint: string }

export interface ViewLink {
  catalog: LinkCatalog
  namespace: string[]
  table: string
  /** A pinned version; absent = the latest. */
  version?: number
  filter?: string
  sort?: SortKey[]
  /** The selected row: its position in the view (0-based, after filter and sort). */
  row?: number
}

/** Why a link was refused, in words (the caller wraps it in an `invalid_input` AppError). */
export class ViewLinkError extends Error {
  readonly hint?: string
  constructor(message: string, hint?: string) {
    super(message)
    this.name = 'ViewLinkError'
    this.hint = hint
  }
}

/** `s3://…`, `gs://…`, `az://…`, `file://…`: a location with a scheme is an object-store URI, not a path. */
export function isUriLocation(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location)
}

/** The link's catalog for an open catalog's kind and location (ConnectionInfo's; they never hold credentials). */
export function linkCatalog(kind: 'dir' | 'rest', location: string): LinkCatalog {
  if (kind === 'rest') return { kind: 'rest', endpoint: location }
  return isUriLocation(location) ? { kind: 'uri', uri: location } : { kind: 'dir', path: location }
}

export function catalogLocation(catalog: LinkCatalog): string {
  return catalog.kind === 'dir' ? catalog.path : catalog.kind === 'uri' ? catalog.uri : catalog.endpoint
}

/** The link for a view; throws ViewLinkError when the view cannot be linked (a secret in the location, too long). */
export function encodeViewLink(link: ViewLink): string {
  checkCatalog(link.catalog)
  const params = new URLSearchParams()
  params.append(link.catalog.kind, catalogLocation(link.catalog))
  for (const part of link.namespace) params.append('ns', part)
  params.append('table', link.table)
  if (link.version !== undefined) params.append('version', String(link.version))
  if (link.filter?.trim()) params.append('filter', link.filter)
  for (const key of link.sort ?? []) params.append('sort', `${key.direction === 'desc' ? '-' : '+'}${key.column}`)
  if (link.row !== undefined) params.append('row', String(link.row))
  const text = VIEW_LINK_PREFIX + params.toString()
  // Round-trip through the parser: a link we make is one we accept (every bound checked in one place).
  parseViewLink(text)
  return text
}

const SINGLE = new Set(['dir', 'uri', 'rest', 'table', 'version', 'filter', 'row'])
const KNOWN = new Set([...SINGLE, 'ns', 'sort'])

/** Read a link; throws ViewLinkError naming what is wrong (unknown parameter, over-long value, a secret). */
export function parseViewLink(text: string): ViewLink {
  if (typeof text !== 'string') throw new ViewLinkError('A link must be text')
  if (text.length > MAX_LINK_LENGTH) throw new ViewLinkError(`The link is ${text.length} characters long; at most ${MAX_LINK_LENGTH} are accepted`, 'Shorten the filter, or open the table and set the filter by hand')
  if (!text.toLowerCase().startsWith(VIEW_LINK_PREFIX)) throw new ViewLinkError(`Not a link to a view: it must start with ${VIEW_LINK_PREFIX}`)
  const query = text.slice(VIEW_LINK_PREFIX.length).split('#')[0]!
  const params = new URLSearchParams(query)
  const seen = new Map<string, string[]>()
  let count = 0
  for (const [name, value] of params) {
    if (++count > MAX_PARAMS) throw new ViewLinkError(`The link has more than ${MAX_PARAMS} parameters`)
    if (!KNOWN.has(name)) throw new ViewLinkError(`The link has an unknown parameter "${shown(name)}"`, `Known parameters: ${[...KNOWN].join(', ')}. A link made by a newer version of the app may need that version`)
    const list = seen.get(name) ?? []
    if (SINGLE.has(name) && list.length > 0) throw new ViewLinkError(`The link names "${name}" twice`)
    list.push(value)
    seen.set(name, list)
  }
  const one = (name: string) => seen.get(name)?.[0]
  const catalogs = (['dir', 'uri', 'rest'] as const).filter((k) => seen.has(k))
  if (catalogs.length !== 1) throw new ViewLinkError(catalogs.length === 0 ? 'The link names no catalog (dir, uri or rest)' : `The link names ${catalogs.length} catalogs (${catalogs.join(', ')}); one is allowed`)
  const kind = catalogs[0]!
  const location = one(kind)!
  const catalog: LinkCatalog = kind === 'dir' ? { kind, path: location } : kind === 'uri' ? { kind, uri: location } : { kind, endpoint: location }
  checkCatalog(catalog)

  const namespace = seen.get('ns') ?? []
  if (namespace.length > 64) throw new ViewLinkError(`The link's namespace has ${namespace.length} levels; at most 64 are accepted`)
  for (const part of namespace) checkName('namespace', part)
  const table = one('table')
  if (table === undefined) throw new ViewLinkError('The link names no table')
  checkName('table', table)

  const link: ViewLink = { catalog, namespace, table }
  const version = one('version')
  if (version !== undefined) link.version = positiveInteger('version', version, 1)
  const filter = one('filter')
  if (filter !== undefined && filter.trim()) {
    if (filter.length > MAX_LINK_FILTER) throw new ViewLinkError(`The link's filter is ${filter.length} characters long; at most ${MAX_LINK_FILTER} are accepted`)
    link.filter = filter
  }
  const sort = seen.get('sort') ?? []
  if (sort.length > MAX_LINK_SORT) throw new ViewLinkError(`The link sorts by ${sort.length} columns; at most ${MAX_LINK_SORT} are accepted`)
  if (sort.length > 0) link.sort = sort.map(sortKey)
  const row = one('row')
  if (row !== undefined) link.row = positiveInteger('row', row, 0)
  return link
}

function checkCatalog(catalog: LinkCatalog): void {
  const location = catalogLocation(catalog)
  if (!location) throw new ViewLinkError(`The link's ${catalog.kind} is empty`)
  if (location.length > MAX_LINK_LOCATION) throw new ViewLinkError(`The link's ${catalog.kind} is ${location.length} characters long; at most ${MAX_LINK_LOCATION} are accepted`)
  if ([...location].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) throw new ViewLinkError(`The link's ${catalog.kind} holds a control character`)
  if (catalog.kind === 'dir') {
    if (isUriLocation(location)) throw new ViewLinkError('The link\'s dir is a URI; an object-store catalog is named by "uri"')
    return
  }
  let url: URL
  try {
    url = new URL(location)
  } catch {
    throw new ViewLinkError(`The link's ${catalog.kind} is not a URL: ${shown(location)}`)
  }
  if (catalog.kind === 'rest' && url.protocol !== 'http:' && url.protocol !== 'https:') throw new ViewLinkError(`The link's REST endpoint must be http or https, not ${url.protocol}`)
  // Keys are never in a link: a user or password in the URL, or a query string (where SAS tokens and signed URLs
  // keep theirs), is refused, not quietly dropped: the user who copied it should know it held a secret.
  if (url.username || url.password) throw new ViewLinkError(`The link's ${catalog.kind} holds a user name or password; links never carry credentials`, 'Connect with a saved connection; its key stays in the app')
  if (url.search || url.hash) throw new ViewLinkError(`The link's ${catalog.kind} has a query or fragment; links never carry keys or tokens`, 'Name the catalog without its query string')
}

function checkName(what: string, value: string): void {
  const problem = componentProblem(value)
  if (problem) throw new ViewLinkError(`The link's ${what} name "${shown(value)}" ${problem}`)
}

function positiveInteger(name: string, value: string, min: number): number {
  if (!/^\d{1,15}$/.test(value) || Number(value) < min) throw new ViewLinkError(`The link's ${name} must be a whole number of ${min} or more, not "${shown(value)}"`)
  return Number(value)
}

function sortKey(value: string): SortKey {
  const sign = value[0]
  const column = value.slice(1)
  if ((sign !== '+' && sign !== '-') || !column) throw new ViewLinkError(`The link's sort "${shown(value)}" must be +column or -column`)
  if (column.length > 1024) throw new ViewLinkError(`The link sorts by a column name of ${column.length} characters; at most 1024 are accepted`)
  return { column, direction: sign === '-' ? 'desc' : 'asc' }
}

/** A value as an error message shows it: never the whole of an over-long one. */
function shown(value: string): string {
  return value.length > 60 ? `${value.slice(0, 57)}…` : value
}
