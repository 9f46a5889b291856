import type { Method, Output } from './api'

/**
 * Every contract method's name, with no runtime dependency: the sandboxed preload can load only `electron`
 * (it cannot `require` zod), yet refuses unknown methods before they reach main. The type checks below keep
 * this list equal to the keys of `api` in api.ts: add a method there and the type check asks for it here.
 */
export const METHOD_NAMES = [
  'app/info',
  'app/restartHost',
  'connections/list',
  'connections/openDirectory',
  'connections/close',
  'connections/setReadOnly',
  'connections/recent',
  'workbench/tabs',
  'workbench/saveTabs',
  'connections/createCatalog',
  'connections/recover',
  'dialogs/pickDirectory',
  'dialogs/pickFiles',
  'dialogs/saveFile',
  'namespaces/list',
  'tables/list',
  'tables/describe',
  'tables/page',
  'tables/count',
  'tables/latestVersion',
  'tables/explain',
  'namespaces/create',
  'namespaces/drop',
  'namespaces/describe',
  'namespaces/contents',
  'tables/drop',
  'tables/rename',
  'connections/saved/list',
  'connections/saved/save',
  'connections/saved/delete',
  'connections/saved/open',
  'connections/saved/connect',
  'connections/saved/test',
  'connections/capabilities',
  'requests/cancel',
  'import/preview',
  'import/sample',
  'import/start',
  'import/discardUpload',
  'versions/list',
  'versions/compare',
  'versions/restore',
  'versions/restorePreview',
  'tags/list',
  'tags/create',
  'tags/delete',
  'tags/resolve',
  'indexes/list',
  'indexes/create',
  'indexes/start',
  'indexes/drop',
  'tables/stats',
  'tables/optimizePreview',
  'tables/optimize',
  'columns/add',
  'columns/alter',
  'columns/drop',
  'rows/delete',
  'tables/createEmpty',
  'tables/dataFormat',
  'catalog/dataFormats',
  'jobs/list',
  'jobs/cancel',
  'export/start',
  'profile/start',
  'profile/get',
  'diff/start',
  'diff/get',
  'map/start',
  'map/get',
  'map/coords',
  'rowsets/create',
  'sql/run',
  'sql/page',
  'sql/status',
  'sql/cancel',
  'sql/close',
  'sql/explain',
  'sql/names',
  'sql/history/list',
  'sql/history/add',
  'sql/history/clear',
  'sql/saveAsTable',
  'sql/resultTable',
] as const satisfies readonly Method[]

type Missing = Exclude<Method, (typeof METHOD_NAMES)[number]>
/** Fails to type-check, naming the method, when api.ts has a method this list lacks. */
export const METHOD_NAMES_COMPLETE: [Missing] extends [never] ? true : { missing: Missing } = true

/**
 * The methods that change something: a catalog, a table, a saved connection, the open connections, the host, the
 * jobs. Each has one rule in the renderer saying what it makes stale (src/renderer/queries/invalidate.ts: its
 * table is keyed by this list). Every other method only reads, or asks the user (dialogs), or stops a read
 * (`requests/cancel`); READ_METHODS names them, and the check below keeps the two lists a split of all methods.
 */
export const WRITE_METHODS = [
  'app/restartHost',
  'connections/openDirectory',
  'connections/close',
  'connections/setReadOnly',
  'connections/createCatalog',
  'connections/recover',
  'namespaces/create',
  'namespaces/drop',
  'tables/drop',
  'tables/rename',
  'connections/saved/save',
  'connections/saved/delete',
  'connections/saved/open',
  'connections/saved/connect',
  'import/start',
  'import/discardUpload',
  'versions/restore',
  'tags/create',
  'tags/delete',
  'indexes/create',
  'indexes/start',
  'indexes/drop',
  'tables/optimize',
  'columns/add',
  'columns/alter',
  'columns/drop',
  'rows/delete',
  'tables/createEmpty',
  'jobs/cancel',
  'export/start',
  'profile/start',
  'diff/start',
  'map/start',
  'rowsets/create',
  'workbench/saveTabs',
  'sql/run',
  'sql/cancel',
  'sql/close',
  'sql/history/add',
  'sql/history/clear',
  'sql/saveAsTable',
] as const satisfies readonly Method[]
export type WriteMethod = (typeof WRITE_METHODS)[number]

export const READ_METHODS = [
  'app/info',
  'connections/list',
  'connections/recent',
  'workbench/tabs',
  'dialogs/pickDirectory',
  'dialogs/pickFiles',
  'dialogs/saveFile',
  'namespaces/list',
  'tables/list',
  'tables/describe',
  'tables/page',
  'tables/count',
  'tables/latestVersion',
  'tables/explain',
  'namespaces/describe',
  'namespaces/contents',
  'connections/saved/list',
  'connections/saved/test',
  'connections/capabilities',
  'requests/cancel',
  'import/preview',
  'import/sample',
  'versions/list',
  'versions/compare',
  'versions/restorePreview',
  'tags/list',
  'tags/resolve',
  'indexes/list',
  'tables/stats',
  'tables/optimizePreview',
  'jobs/list',
  'profile/get',
  'diff/get',
  'map/get',
  'map/coords',
  'tables/dataFormat',
  'catalog/dataFormats',
  'sql/page',
  'sql/status',
  'sql/explain',
  'sql/names',
  'sql/history/list',
  'sql/resultTable',
] as const satisfies readonly Method[]

type Unsorted = Exclude<Method, WriteMethod | (typeof READ_METHODS)[number]>
type Both = Extract<WriteMethod, (typeof READ_METHODS)[number]>
/** Fails to type-check, naming the method, when a method is neither a write nor a read, or is both. */
export const WRITES_AND_READS_SPLIT: [Unsorted, Both] extends [never, never] ? true : { unsorted: Unsorted; both: Both } = true

const known: ReadonlySet<string> = new Set(METHOD_NAMES)

/** Is `name` a contract method? The same answer as `isMethod` in api.ts, without loading the schemas. */
export function isMethodName(name: unknown): name is Method {
  return typeof name === 'string' && known.has(name)
}

/**
 * The methods that answer bytes (Arrow IPC: table pages, a map's coordinates, an import's first rows). In the desktop
 * app they go from the window straight to the catalog host over a port of their own, so the bytes are not copied
 * through main on the way (src/preload/index.ts); every other call goes through main.
 */
export const BYTES_METHODS = ['tables/page', 'map/coords', 'import/sample', 'sql/page'] as const satisfies readonly Method[]
type Bytes = { [M in Method]: Output<M> extends Uint8Array ? M : never }[Method]
/** Fails to type-check when a method answering bytes is missing from BYTES_METHODS (or one there does not). */
export const BYTES_METHODS_EXACT: [Exclude<Bytes, (typeof BYTES_METHODS)[number]>, Exclude<(typeof BYTES_METHODS)[number], Bytes>] extends [never, never] ? true : { not: unknown } = true

const bytes: ReadonlySet<string> = new Set(BYTES_METHODS)

export function answersBytes(name: string): boolean {
  return bytes.has(name)
}
