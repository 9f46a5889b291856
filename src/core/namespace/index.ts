/**
 * The namespace drivers' public face: what hosts (our REST server) use of them. Importing it registers the `dir`
 * and `rest` implementations of {@link connectNamespace}. Everything else under namespace/ is the drivers' own.
 */
import './dir'
import './rest'

export { connectNamespace } from './connect'
export { listAll, type CallOptions, type CreateMode, type ListOptions, type NamespaceClient, type ReadPageOptions, type TableDescription } from './client'
export { assertComponent, assertNamespacePath, assertTableId, formatNamespace, formatTableId, type NamespacePath, type TableId } from './path'
export { columnNotFound, indexExists, indexNotFound, tagExists, tagNotFound, versionNotFound, WireCodedError } from './errors'
export { DirNamespaceClient, type DirOpenOptions } from './dir'
export { claimsFor, NameClaims } from './dir/claim'
export { objectStoreUnsupported } from './objectStore'
export { ARROW_FILE, ARROW_STREAM, decodeId, DEFAULT_DELIMITER, normalizeMode } from './rest/wire'
export { httpStatusOf, WireCode, wireCodeOf } from './rest/errors'
export { schemaToJson } from './rest/jsonSchema'
export { ORDER_APPLIED_HEADER, ORDER_BY_FIELD } from './rest/queryRequest'
