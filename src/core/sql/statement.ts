import type { DuckDBConnection } from '@duckdb/node-api'
import { AppError } from '../../contract'

/** A catalog table named in a statement, where it stands in the text (UTF-16 offsets [start, end)). */
export interface NamedTable {
  /** The name as written, outermost first (`ns.t` → ['ns', 't']; a root table → ['t']), or a `lance('a/b/t')` path. */
  parts: string[]
  /** `lance('ns/t', version => 3)` / `tag => 'v3'`. */
  version?: number
  tag?: string
  /** `lance('ns/t', catalog => 'label')`: a table of another open catalog, by its label in the tree. */
  catalog?: string
  start: number
  end: number
  /** The alias written after it (`ns.t x`), or '' (the table's own name then names it). */
  alias: string
}

/** What a statement reads: its catalog tables, and the LIMIT (plus OFFSET) of its outermost query, if a constant. */
export interface ParsedStatement {
  tables: NamedTable[]
  limit: number | null
}

/** Table functions a statement may call: they make rows from their arguments and touch nothing else. */
const ALLOWED_TABLE_FUNCTIONS = new Set(['range', 'generate_series', 'unnest'])

/** Why each kind of statement is refused, by its first word (anything else that is not a query: the default). */
const REFUSALS: Record<string, string> = {
  attach: 'ATTACH is refused: the SQL engine reads the open catalog’s tables and nothing else',
  detach: 'DETACH is refused: the SQL engine has no other databases',
  install: 'INSTALL is refused: extensions would be downloaded from the internet, and the engine runs without them',
  load: 'LOAD is refused: the engine runs without extensions (they would have to be downloaded first)',
  pragma: 'PRAGMA is refused: the engine’s settings are fixed (memory limit, threads, no file access)',
  set: 'SET is refused: the engine’s settings are fixed (memory limit, threads, no file access)',
  reset: 'RESET is refused: the engine’s settings are fixed',
  copy: 'COPY is refused: the engine reads no files and writes none; use Export… or Save as table…',
  export: 'EXPORT is refused: the engine writes no files; use Export…',
  import: 'IMPORT is refused: the engine reads no files; use Import…',
  create: 'CREATE is refused: SQL here only reads; use Save as table… to keep a result as a table',
  insert: 'INSERT is refused: SQL here only reads; use Save as table… or Import… to add rows',
  update: 'UPDATE is refused: SQL here only reads the catalog',
  delete: 'DELETE is refused: SQL here only reads the catalog',
  drop: 'DROP is refused: SQL here only reads the catalog (drop a table from the tree)',
  alter: 'ALTER is refused: SQL here only reads the catalog (use Change schema)',
  call: 'CALL is refused: it runs DuckDB’s own procedures, which may read files or settings',
  explain: 'EXPLAIN here is the Explain button: run it on the query itself',
  checkpoint: 'CHECKPOINT is refused: SQL here only reads',
  vacuum: 'VACUUM is refused: SQL here only reads',
  begin: 'Transactions are refused: SQL here only reads',
  commit: 'Transactions are refused: SQL here only reads',
  rollback: 'Transactions are refused: SQL here only reads',
  use: 'USE is refused: name tables as namespace.table',
  prepare: 'PREPARE is refused: run the query itself',
  execute: 'EXECUTE is refused: run the query itself',
  summarize: 'SUMMARIZE is refused: use the Summary of a table view',
  describe: 'DESCRIBE is refused: the Schema panel describes a table',
  show: 'SHOW is refused: the tree lists namespaces and tables',
}

/** UTF-16 offset of a UTF-8 byte offset in `text` (DuckDB's locations count bytes). */
export function charOffset(text: string, byteOffset: number): number {
  if (Buffer.byteLength(text, 'utf8') === text.length) return Math.min(byteOffset, text.length)
  const bytes = Buffer.from(text, 'utf8')
  return Buffer.from(bytes.subarray(0, byteOffset)).toString('utf8').length
}

/**
 * What one statement reads, from DuckDB's own parser (`json_serialize_sql`): the catalog tables it names and their
 * places in the text, after refusing in words anything that is not one read-only query (another statement kind,
 * several statements, a table function that reads files or settings).
 */
export async function parseStatement(connection: DuckDBConnection, sql: string): Promise<ParsedStatement> {
  const reader = await connection.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR)', [sql])
  const parsed = JSON.parse(String(reader.getRows()[0]![0])) as { error: boolean; error_message?: string; error_type?: string; position?: string; statements?: { node: unknown }[] }
  if (parsed.error) {
    if (parsed.error_type === 'parser') {
      const at = parsed.position === undefined ? 0 : charOffset(sql, Number(parsed.position))
      throw syntaxError(sql, at, parsed.error_message ?? 'syntax error')
    }
    const word = (/^\s*(?:--[^\n]*\n\s*|\/\*[\s\S]*?\*\/\s*)*([A-Za-z]+)/.exec(sql)?.[1] ?? '').toLowerCase()
    const start = sql.search(/\S/)
    throw new AppError('unsupported', REFUSALS[word] ?? 'Only queries (SELECT, WITH, VALUES, FROM …) run here: SQL here only reads the catalog', {
      span: { start: Math.max(0, start), end: Math.max(0, start) + word.length },
    })
  }
  const statements = parsed.statements ?? []
  if (statements.length !== 1) throw new AppError('invalid_input', statements.length === 0 ? 'There is no statement to run' : `This text holds ${statements.length} statements; run one at a time`, { hint: 'Select the statement to run, or put the caret in it' })
  const node = statements[0]!.node
  return { tables: namedTables(sql, node), limit: rootLimit(node) }
}

/** LIMIT n [OFFSET m] of the outermost query as n + m, when both are constants. */
function rootLimit(node: unknown): number | null {
  const modifiers = (node as { modifiers?: { type: string; limit?: { class: string; value?: { value: unknown } } | null; offset?: { class: string; value?: { value: unknown } } | null }[] }).modifiers ?? []
  const limit = modifiers.find((m) => m.type === 'LIMIT_MODIFIER')
  if (!limit?.limit || limit.limit.class !== 'CONSTANT') return null
  const n = Number(limit.limit.value?.value)
  const offset = limit.offset ? (limit.offset.class === 'CONSTANT' ? Number(limit.offset.value?.value) : NaN) : 0
  return Number.isInteger(n) && Number.isInteger(offset) ? n + offset : null
}

export function syntaxError(sql: string, at: number, message: string): AppError {
  const token = /^("([^"]|"")*"|'([^']|'')*'|\w+|\S)/.exec(sql.slice(at))?.[0] ?? ''
  return new AppError('invalid_input', `${message.charAt(0).toUpperCase()}${message.slice(1)} (${lineColumn(sql, at)})`, { span: { start: at, end: at + Math.max(1, token.length) } })
}

/** `line 2, column 5` of a UTF-16 offset (both from 1). */
export function lineColumn(sql: string, at: number): string {
  const before = sql.slice(0, at).split('\n')
  return `line ${before.length}, column ${before[before.length - 1]!.length + 1}`
}

interface Node {
  type?: string
  query_location?: number
  catalog_name?: string
  schema_name?: string
  table_name?: string
  function?: { function_name: string; schema?: string; children: { alias: string; value?: { value: unknown; is_null: boolean }; class: string }[] }
  cte_map?: { map: { key: string }[] }
  alias?: string
}

function namedTables(sql: string, root: unknown): NamedTable[] {
  const ctes = new Set<string>()
  const found: NamedTable[] = []
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit)
    if (!value || typeof value !== 'object') return
    const node = value as Node
    for (const entry of node.cte_map?.map ?? []) ctes.add(entry.key.toLowerCase())
    if (node.type === 'BASE_TABLE') found.push(baseTable(sql, node))
    else if (node.type === 'TABLE_FUNCTION') {
      const table = tableFunction(sql, node)
      if (table) found.push(table)
    }
    for (const child of Object.values(node)) visit(child)
  }
  visit(root)
  // A CTE's name is the CTE, not a catalog table (one scope for the statement: a CTE shadows a root table everywhere).
  return found.filter((t) => !(t.parts.length === 1 && t.version === undefined && t.tag === undefined && ctes.has(t.parts[0]!.toLowerCase()) && !isLanceCall(sql, t)))
}

const isLanceCall = (sql: string, t: NamedTable) => /^lance\s*\(/i.test(sql.slice(t.start, t.end))

function baseTable(sql: string, node: Node): NamedTable {
  const parts = [node.catalog_name, node.schema_name, node.table_name].filter((p): p is string => !!p)
  const start = charOffset(sql, node.query_location ?? 0)
  return { parts, start, end: start + nameLength(sql.slice(start), parts.length), alias: node.alias ?? '' }
}

/** Length of a dotted name of `count` parts (each bare or "quoted") at the start of `text`. */
function nameLength(text: string, count: number): number {
  const part = /^\s*("(?:[^"]|"")*"|[^\s."(),;]+)\s*/
  let at = 0
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      if (text[at] !== '.') break
      at++
    }
    const match = part.exec(text.slice(at))
    if (!match) break
    at += match[0].trimEnd().length
  }
  return at
}

function tableFunction(sql: string, node: Node): NamedTable | null {
  const fn = node.function!
  const name = fn.function_name.toLowerCase()
  const start = charOffset(sql, node.query_location ?? 0)
  if (name !== 'lance') {
    if (ALLOWED_TABLE_FUNCTIONS.has(name) && !fn.schema) return null
    throw new AppError('unsupported', `The table function ${fn.function_name}() is refused: the SQL engine reads the catalog’s tables and nothing else`, {
      span: { start, end: start + fn.function_name.length },
      hint: 'Name a catalog table (namespace.table), or lance(\'namespace/table\', version => 3) for an older version',
    })
  }
  const end = start + callLength(sql.slice(start))
  const args = fn.children
  const path = args.find((a) => !a.alias)
  const text = path?.class === 'CONSTANT' && typeof path.value?.value === 'string' ? path.value.value : null
  if (text === null || args.filter((a) => !a.alias).length !== 1 || args.length > 3) {
    throw new AppError('invalid_input', "lance() takes a table's path as text, and version => n or tag => 'name', and catalog => 'label'", { span: { start, end }, hint: "For example lance('ns/table', version => 3)" })
  }
  const table: NamedTable = { parts: text.split('/').filter((p) => p !== ''), start, end, alias: node.alias ?? '' }
  for (const named of args.filter((a) => a.alias)) {
    const key = named.alias.toLowerCase()
    if (key === 'version' && Number.isInteger(Number(named.value?.value)) && table.version === undefined) table.version = Number(named.value!.value)
    else if (key === 'tag' && typeof named.value?.value === 'string' && table.tag === undefined) table.tag = named.value.value
    else if (key === 'catalog' && typeof named.value?.value === 'string' && table.catalog === undefined) table.catalog = named.value.value
    else throw new AppError('invalid_input', `lance() takes version => n or tag => 'name', and catalog => 'label', not ${named.alias}`, { span: { start, end } })
  }
  if (table.version !== undefined && table.tag !== undefined) throw new AppError('invalid_input', 'lance() takes version => n or tag => \'name\', not both', { span: { start, end } })
  return table
}

/** Length of `name(…)` at the start of `text`, parentheses balanced outside quotes. */
function callLength(text: string): number {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === "'" || c === '"') {
      const close = text.indexOf(c, i + 1)
      i = close < 0 ? text.length : close
    } else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return i + 1
  }
  return text.length
}
