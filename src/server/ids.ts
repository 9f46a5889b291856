import type { FastifyRequest } from 'fastify'
import { componentProblem } from '../contract'
import { type NamespacePath, type TableId, decodeId, DEFAULT_DELIMITER } from '../core/namespace'
import { invalid } from './wireErrors'

/**
 * The `{id}` segment, read from the raw URL: find-my-way percent-decodes params but keeps `+`, and the
 * contract's ids are form-encoded, so `+` must become a space *before* percent-decoding (§9.2).
 * Every route with an id has it as the fourth segment: `/v1/<kind>/{id}/...`.
 */
function pathParts(request: FastifyRequest): string[] {
  const segment = idSegment(request)
  const query = request.query as Record<string, unknown>
  const delimiter = typeof query.delimiter === 'string' && query.delimiter !== '' ? query.delimiter : DEFAULT_DELIMITER
  if (delimiter.length > 8) throw invalid('The delimiter is too long')
  let parts: string[]
  try {
    parts = decodeId(segment, delimiter)
  } catch {
    throw invalid('The id in the path is not valid percent-encoding')
  }
  parts.forEach((part, i) => {
    const problem = componentProblem(part)
    if (problem) throw invalid(`Invalid id component ${i + 1} ${quoted(part)}: ${problem}`)
  })
  refuseLongId(parts)
  return parts
}

/** The body may repeat the id; it must then match the path (the spec's rule). */
function checkBodyId(parts: readonly string[], body: unknown): void {
  const id = (body as { id?: unknown } | null)?.id
  if (id === undefined || id === null) return
  if (!Array.isArray(id) || id.length !== parts.length || id.some((p, i) => p !== parts[i])) {
    throw invalid('The id in the body does not match the id in the path')
  }
}

export function namespaceOf(request: FastifyRequest): NamespacePath {
  const parts = pathParts(request)
  checkBodyId(parts, request.body)
  return parts
}

export function tableOf(request: FastifyRequest): TableId {
  const parts = pathParts(request)
  if (parts.length === 0) throw invalid('A table id needs at least a table name')
  checkBodyId(parts, request.body)
  return { namespace: parts.slice(0, -1), name: parts[parts.length - 1]! }
}

export function tableNameParam(request: FastifyRequest): TableId {
  let name: string
  try {
    name = decodeURIComponent(idSegment(request).replace(/\+/g, ' '))
  } catch {
    throw invalid('The table name in the path is not valid percent-encoding')
  }
  const problem = componentProblem(name)
  if (problem) throw invalid(`Invalid table name ${quoted(name)}: ${problem}`)
  refuseLongId([name])
  return { namespace: [], name }
}

/** The raw fourth segment of the path (`/v1/<kind>/{id}/...`); repeated slashes count as one, as the router does. */
function idSegment(request: FastifyRequest): string {
  const path = (request.raw.url ?? '').split('?')[0]!.replace(/\/{2,}/g, '/')
  return path.split('/')[3] ?? ''
}

/**
 * A directory catalog names a table's directory after its whole id (`{8 hex}_{a$b$name}` or `{name}.lance`),
 * and file systems allow 255 bytes per name: longer ids are refused up front (not with the file system's
 * ENAMETOOLONG, which names server paths).
 */
export const MAX_ID_BYTES = 200

function refuseLongId(parts: readonly string[]): void {
  const bytes = Buffer.byteLength(parts.join('$'), 'utf8')
  if (bytes > MAX_ID_BYTES) throw invalid(`The id is too long (${bytes} bytes; at most ${MAX_ID_BYTES}, its parts joined by "$")`, 'Use shorter names')
}

/** A name for an error message: JSON-quoted, cut at 80 characters. */
function quoted(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name)
}
