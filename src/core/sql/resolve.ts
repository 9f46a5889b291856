import type { Schema } from 'apache-arrow'
import { AppError } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
import type { NamedTable } from './statement'

/** A catalog table version a statement reads. */
export interface ResolvedTable {
  id: TableId
  version: number
  schema: Schema
  rowCount: number
  /** One key per table version (a table named twice is read once). */
  key: string
}

/**
 * A name as written → a catalog table at a version: `t` is the root namespace's table, `ns.t` namespace `ns`,
 * `a.b.t` namespace `a/b` (DuckDB's names have at most three parts; deeper namespaces go through `lance('a/b/c/t')`).
 * An unknown name is refused with the nearest table name of that namespace as the hint.
 */
export async function resolveTable(client: NamespaceClient, named: NamedTable, signal?: AbortSignal): Promise<ResolvedTable> {
  const id: TableId = { namespace: named.parts.slice(0, -1), name: named.parts[named.parts.length - 1] ?? '' }
  const span = { start: named.start, end: named.end }
  let version = named.version
  try {
    if (named.tag !== undefined) version = await client.tagVersion(id, named.tag, { signal })
    const description = await client.describeTable(id, { version, signal })
    return { id, version: description.version, schema: description.schema, rowCount: description.rowCount, key: `${JSON.stringify(id.namespace)}/${id.name}@${description.version}` }
  } catch (error) {
    if (!(error instanceof AppError) || (error.code !== 'not_found' && error.code !== 'invalid_input')) throw error
    const shown = [...id.namespace, id.name].join('.')
    if (version !== undefined && error.message.toLowerCase().includes('version')) throw new AppError('invalid_input', `${shown} has no version ${version}`, { span, detail: error.message })
    const near = await nearestTable(client, id, signal)
    throw new AppError('invalid_input', `No table ${shown} in this catalog`, {
      span,
      detail: error.message,
      hint: near ? `Did you mean ${near}?` : 'Name tables as namespace.table (a root table by its name alone)',
    })
  }
}

async function nearestTable(client: NamespaceClient, id: TableId, signal?: AbortSignal): Promise<string | null> {
  try {
    const names = (await client.listTables(id.namespace, { limit: 1000, signal })).items
    const best = nearest(id.name, names)
    return best === null ? null : [...id.namespace, best].map(quoteIfNeeded).join('.')
  } catch {
    return null
  }
}

const quoteIfNeeded = (name: string) => (/^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replaceAll('"', '""')}"`)

/** The candidate closest to `name` (case-insensitive edit distance), if any is close enough to be a likely typo. */
export function nearest(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null
  let bestDistance = Infinity
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase())
    if (d < bestDistance) [best, bestDistance] = [candidate, d]
  }
  return best !== null && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : null
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    previous = current
  }
  return previous[b.length]!
}
