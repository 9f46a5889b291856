import { AppError } from '../../../contract'
import { isLancePanic, lancePanicError } from '../../errors'
import { formatNamespace, formatTableId, type NamespacePath, type TableId } from '../path'

/** What the failed call was about, so the message can name it. */
export interface ErrorContext {
  table?: TableId
  namespace?: NamespacePath
  /** The catalog has a `__manifest` (so "manifest mode is disabled" means the manifest is unreadable). */
  hasManifest?: boolean
}

const DAMAGE_HINT = 'Restore the table from a backup, or drop it'

/**
 * The one place that reads lance/lancedb error texts (lancedb 0.31.0, lance 8). They are plain
 * `Error`s with long Rust messages, so we match on their words and keep the original as `detail`.
 */
export function fromLanceError(error: unknown, context: ErrorContext = {}): AppError {
  if (error instanceof AppError) return error
  const err = error instanceof Error ? error : new Error(String(error))
  const text = err.message
  const detail = cleanDetail(text)
  const make = (code: AppError['code'], message: string, hint?: string) => new AppError(code, message, { detail, hint, cause: err })
  const table = context.table ? `Table ${formatTableId(context.table)}` : 'The table'
  const namespace = context.namespace ? `Namespace ${formatNamespace(context.namespace)}` : context.table ? `Namespace ${formatNamespace(context.table.namespace)}` : 'The namespace'
  const fsCode = (err as NodeJS.ErrnoException).code

  if (err.name === 'AbortError') return new AppError('cancelled', 'The request was cancelled', { cause: err })
  if (fsCode === 'EACCES' || fsCode === 'EPERM' || /permission denied/i.test(text)) {
    return make('permission_denied', 'Permission denied while reading the catalog', 'Check the folder permissions')
  }
  // Listed in the catalog, but the table's own directory or version files are gone.
  if (/Dataset at path .* was not found/s.test(text)) return make('corrupt', `${table} is damaged: its files are missing`, DAMAGE_HINT)
  if (/Table not found|Table '.*' was not found/s.test(text)) return make('not_found', `${table} does not exist`, 'Refresh the tree')
  if (/parent namespace/i.test(text) && /not found/i.test(text)) return make('not_found', `The parent of ${namespace.toLowerCase()} does not exist`)
  if (/Namespace not found/i.test(text)) return make('not_found', `${namespace} does not exist`, 'Refresh the tree')
  if (/Child namespaces are only supported when manifest mode is enabled|only supports root namespace operations/i.test(text)) {
    if (context.hasManifest) return make('corrupt', "The catalog's __manifest cannot be read, so its namespaces are unavailable", 'Restore the __manifest folder from a backup')
    return make('unsupported', 'This directory has no __manifest, so it holds no child namespaces (only tables at its root)')
  }
  if (/Namespace not empty/i.test(text)) return make('not_empty', `${namespace} is not empty`, 'Drop the tables and namespaces inside it first')
  // The caller's own mistakes, in Lance's words ("Invalid user input: …"), checked before the generic rules below.
  const userInput = userInputProblem(text)
  if (userInput) return make('invalid_input', userInput)
  if (/already exists/i.test(text)) return make('already_exists', `${context.table ? table : namespace} already exists`)
  // lancedb 0.31 (Lance 8) updates only IVF vector indexes in the current format; one written by an older release
  // (vectordb 0.4) fails when Optimize updates the indexes, after its compaction was committed.
  if (/only for v2 IVFIndex/i.test(text)) {
    return make(
      'unsupported',
      `${table} has a vector index in an old format (written by an older LanceDB release, such as vectordb 0.4) that this app's Lance cannot update`,
      'Rebuild the index: drop it and create it again (Indexes), then run Optimize again. The table and its index stay readable as they are',
    )
  }
  // Lance's "not implemented" is about the operation on this table (its format, its index kind), not about the catalog.
  if (/not implemented|Not supported/i.test(text)) return make('unsupported', `Lance cannot do this on ${context.table ? `table ${formatTableId(context.table)}` : 'this table'}: ${firstLine(text)}`)
  if (/No field named|Schema error/i.test(text)) return make('invalid_input', `Unknown column: ${firstLine(text).replace(/^.*No field named\s*/s, '')}`)
  if (/LanceError\((IO|Corrupt)|Corrupt file|does not have sufficient data|Invalid range .* for object|Object at location .* not found|Invalid (protobuf|flatbuffer)|decode/i.test(text)) {
    return make('corrupt', `${table} is damaged: its files cannot be read`, DAMAGE_HINT)
  }
  if (isLancePanic(text)) return lancePanicError(err, context.table ? `table ${formatTableId(context.table)}` : 'the catalog')
  return make('internal', `Unexpected error from Lance: ${firstLine(text)}`)
}

/**
 * What the caller got wrong, when Lance says so: a SQL text it cannot parse, a column that is not there, a column
 * name already taken, an index kind that does not fit the column's type. Null for anything else.
 */
function userInputProblem(text: string): string | null {
  const sql = /Error parsing statement: (?:SELECT 1 FROM t WHERE )?(.*?) \(sql parser error: ([^)]*)\)/s.exec(text)
  if (sql) return `The SQL expression "${sql[1]!.slice(0, 200)}" cannot be parsed: ${sql[2]!.slice(0, 200)}`
  if (/sql parser error/i.test(text)) return `The SQL expression cannot be parsed: ${firstLine(text).replace(/^.*sql parser error:\s*/s, '')}`
  const missing = /Column '([^']*)' does not exist in dataset schema/.exec(text)
  if (missing) return `Column "${missing[1]}" does not exist in the table`
  const taken = /Column (\S+) already exists in the dataset/.exec(text)
  if (taken) return `Column "${taken[1]}" already exists in the table; choose another name`
  const index = /A (.+?) index cannot be created on the field `([^`]*)` which has data type (.+?)(?:\s{2}Caused by|\n|,\s*\/|$)/s.exec(text)
  if (index) return `A ${index[1]} index cannot be built on column "${index[2]}": its type is ${index[3]!.trim()}, which that index does not take`
  return null
}

/** Drop the Rust source paths that make lance messages hard to read. */
function cleanDetail(text: string): string {
  const cleaned = text.replace(/,?\s*\/(usr\/local\/cargo|rustc)\/[^\s,]+/g, '')
  return cleaned.length > 2000 ? `${cleaned.slice(0, 2000)}…` : cleaned
}

function firstLine(text: string): string {
  const line = cleanDetail(text).split(/\n| {2}Caused by:/)[0] ?? text
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}
