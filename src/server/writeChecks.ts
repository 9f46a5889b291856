import type { Schema } from 'apache-arrow'
import { AppError } from '../contract'
import { toAppError } from '../core'
import { type NamespacePath, type TableId, WireCode } from '../core/namespace'
import type { Catalog } from './catalogs'
import { WireError } from './wireErrors'

const shown = (parts: readonly string[]) => JSON.stringify(parts.join('/'))

async function isNamespace(catalog: Catalog, path: NamespacePath): Promise<boolean> {
  if (path.length === 0) return true
  try {
    await catalog.client.describeNamespace(path)
    return true
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return false
    throw error
  }
}

/**
 * Namespaces and tables share one name space (one `__manifest` object id each): a name held by either
 * cannot be taken by the other. Called inside the catalog's write lock, before any write.
 */
export async function refuseTakenByNamespace(catalog: Catalog, id: TableId): Promise<void> {
  if (await isNamespace(catalog, [...id.namespace, id.name])) {
    throw new WireError('already_exists', `A namespace named ${shown([...id.namespace, id.name])} already exists; a table cannot take its name`, WireCode.NamespaceAlreadyExists)
  }
}

export async function refuseTakenByTable(catalog: Catalog, path: NamespacePath): Promise<void> {
  if (path.length === 0) return
  const id = { namespace: path.slice(0, -1), name: path[path.length - 1]! }
  if (await catalog.locator.locate(id)) {
    throw new WireError('already_exists', `A table named ${shown(path)} already exists; a namespace cannot take its name`, WireCode.TableAlreadyExists)
  }
}

/** The columns an insert brings that differ from the table's, in words; null when they agree. */
export function schemaDifference(table: Schema, data: Schema): string | null {
  const want = new Map(table.fields.map((f) => [f.name, f]))
  const got = new Map(data.fields.map((f) => [f.name, f]))
  const problems: string[] = []
  for (const f of data.fields) {
    const t = want.get(f.name)
    if (!t) problems.push(`column "${f.name}" is not in the table`)
    else if (String(t.type) !== String(f.type)) problems.push(`column "${f.name}" is ${String(f.type)}, the table has ${String(t.type)}`)
  }
  for (const t of table.fields) if (!got.has(t.name) && !t.nullable) problems.push(`column "${t.name}" (not nullable) is missing`)
  return problems.length > 0 ? problems.join('; ') : null
}

export function refuseSchemaDifference(table: Schema, data: Schema): void {
  const difference = schemaDifference(table, data)
  if (difference) {
    throw new WireError('invalid_input', `The rows do not match the table's schema: ${difference}`, WireCode.TableSchemaValidationError)
  }
}

/**
 * Lance refuses data it cannot take (arrow-rs validation, schema mismatches) with an engine error that our
 * client reports as internal; for the server those are the client's fault: 400, code 13.
 */
export function asClientError(error: unknown): unknown {
  const e = toAppError(error)
  const text = `${e.message} ${e.detail ?? ''}`
  // Another process (or lancedb client) wrote the same name first: the loser of the race is told so.
  // lance-namespace's own words on object storage: "Concurrent modification: Object 'a$t' was concurrently created …".
  const raced = /Object '([^']+)' was concurrently created/.exec(text)?.[1]
  if (raced) return new AppError('already_exists', `${raced.split('$').join('/')} was created by another writer at the same time`)
  if (e.code === 'internal' && /concurrently created|already exists/i.test(text)) return new AppError('already_exists', `${firstLine(e.message).replace(/^Unexpected error from Lance: /, '')}`)
  if (e.code === 'internal' && /Concurrent modification|commit conflict|Retryable commit|duplicate object_id|Incompatible transaction/i.test(text)) return new AppError('conflict', 'Another writer changed the catalog at the same time; try again', { detail: firstLine(e.message) })
  if (e.code === 'internal' && /Invalid argument error|Invalid input|Arrow error|Schema error|LanceError\((Schema|InvalidInput|Arrow)\)|does not exist in table schema|Offset invariant|not match|must be a positive/i.test(`${e.message} ${e.detail ?? ''}`)) {
    return new AppError('invalid_input', 'Lance refused the rows: the data is not valid for this table', { detail: firstLine(e.message) })
  }
  return error
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.slice(0, 300)
}
