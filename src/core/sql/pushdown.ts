import type { DuckDBConnection } from '@duckdb/node-api'
import { EXPLAIN_PREFIX } from './errors'

/** What one catalog table's scan needs, read from DuckDB's optimized plan over empty stand-ins of the same schema. */
export interface ScanNeeds {
  /** The columns the query reads (projections and the columns of the filters DuckDB pushed into the scan). */
  columns: string[]
  /** The predicate handed to Lance (Lance's SQL), or null. */
  filter: string | null
  /** The scan's predicates Lance is not given, each with why. */
  notPushed: string[]
  /** Rows the scan may stop at (a LIMIT straight over it), or null. */
  limit: number | null
}

interface PlanNode {
  name: string
  children: PlanNode[]
  extra_info: Record<string, string | string[]>
}

/**
 * DuckDB's plan of `sql` (which names the stand-in tables `standIns`), and per stand-in what its scans read. The
 * planner runs with statistics propagation off, else it would see the stand-ins are empty and plan no scan at all.
 * A table scanned twice (a self-join) reads the union of the columns, and gets a filter only if both scans have it.
 */
export async function planScans(planner: DuckDBConnection, sql: string, standIns: ReadonlyMap<string, { columns: readonly string[]; dates: ReadonlySet<string> }>, limitOf: () => number | null, withText = false): Promise<{ plan: string; needs: Map<string, ScanNeeds> }> {
  const reader = await planner.runAndReadAll(`${EXPLAIN_PREFIX}${sql}`)
  const json = String(reader.getRows()[0]![1])
  const roots = JSON.parse(json) as PlanNode[]
  const needs = new Map<string, ScanNeeds>()
  const visit = (node: PlanNode, parents: PlanNode[]) => {
    if (node.name === 'SEQ_SCAN') {
      const table = String(node.extra_info.Table ?? '').split('.').pop()!
      const standIn = standIns.get(table)
      if (standIn) merge(needs, table, scanNeeds(node, standIn.columns, standIn.dates, parents, limitOf))
    }
    node.children.forEach((child) => visit(child, [node, ...parents]))
  }
  roots.forEach((root) => visit(root, []))
  // The text plan only for Explain: a run needs only the scans.
  const text = withText ? String((await planner.runAndReadAll(`EXPLAIN ${sql}`)).getRows()[0]![1]) : ''
  return { plan: text, needs }
}

function merge(needs: Map<string, ScanNeeds>, table: string, scan: ScanNeeds): void {
  const before = needs.get(table)
  if (!before) return void needs.set(table, scan)
  const same = before.filter === scan.filter
  needs.set(table, {
    columns: [...new Set([...before.columns, ...scan.columns])],
    filter: same ? before.filter : null,
    notPushed: same ? before.notPushed : ['The table is scanned more than once with different predicates'],
    limit: before.limit !== null && scan.limit !== null ? Math.max(before.limit, scan.limit) : null,
  })
}

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value])

function scanNeeds(node: PlanNode, columns: readonly string[], dates: ReadonlySet<string>, parents: PlanNode[], limitOf: () => number | null): ScanNeeds {
  const filters = list(node.extra_info.Filters)
  const projected = list(node.extra_info.Projections).map(unquote)
  const used = new Set(projected.filter((c) => columns.includes(c)))
  const pushed: string[] = []
  const notPushed: string[] = []
  for (const filter of filters) {
    for (const column of columns) if (mentions(filter, column)) used.add(column)
    const lance = lanceFilter(filter, columns, dates)
    if (lance) pushed.push(lance)
    else notPushed.push(`${filter} (no exact Lance equivalent; DuckDB applies it)`)
  }
  // The statement's own LIMIT over a bare scan (only projections and that one LIMIT between the scan and the result:
  // no filter, sort, join or aggregate) lets Lance stop early.
  const chainIsBare = parents.every((p) => p.name === 'PROJECTION' || /LIMIT/.test(p.name)) && parents.filter((p) => /LIMIT/.test(p.name)).length === 1
  const limit = filters.length === 0 && chainIsBare ? limitOf() : null
  // A scan that reads no column (count(*)) still needs one to count rows.
  const chosen = columns.filter((c) => used.has(c))
  return { columns: chosen.length > 0 ? chosen : columns.slice(0, 1), filter: pushed.length > 0 ? pushed.map((p) => `(${p})`).join(' AND ') : null, notPushed, limit }
}

const unquote = (name: string) => (name.startsWith('"') && name.endsWith('"') ? name.slice(1, -1).replaceAll('""', '"') : name)

function mentions(filter: string, column: string): boolean {
  const quoted = `"${column.replaceAll('"', '""')}"`
  if (filter.includes(quoted)) return true
  return new RegExp(`(^|[^A-Za-z0-9_"'])${column.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[^A-Za-z0-9_"'])`).test(filter)
}

/** Lance's SQL for a column name: bare when simple, else in backticks. */
const lanceIdent = (name: string) => (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `\`${name.replaceAll('`', '``')}\``)

const COMPARISON = /^\s*("(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_]*)\s*(=|!=|<>|<=|>=|<|>)\s*('(?:[^']|'')*'|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)(?:::([A-Z]+(?:\(\d+,\s*\d+\))?))?\s*$/
/** `CAST(col AS TIMESTAMP) <= '…'::TIMESTAMP`: a date column compared with a timestamp (DATE ± INTERVAL folds to one). */
const CAST_COMPARISON = /^\s*CAST\(("(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_]*) AS TIMESTAMP\)\s*(=|!=|<>|<=|>=|<|>)\s*('(?:[^']|'')*')::TIMESTAMP\s*$/
const NULL_TEST = /^\s*("(?:[^"]|"")*"|[A-Za-z_][A-Za-z0-9_]*)\s+IS\s+(NOT\s+)?NULL\s*$/i

/**
 * One of DuckDB's scan filters in Lance's filter language, when it is a plain comparison of a column with a number,
 * text, date or timestamp (or a NULL test), ANDed; anything else (functions, casts of the column, OR, IN lists,
 * DuckDB's own `optional:` join filters) is not handed over. DuckDB applies every filter again on what Lance returns,
 * so a filter Lance is given only has to be exact, never complete.
 */
export function lanceFilter(filter: string, columns: readonly string[], dates: ReadonlySet<string> = new Set()): string | null {
  const parts = splitAnd(unwrap(filter.trim()))
  if (parts === null) return null
  const out: string[] = []
  for (const part of parts) {
    const nullTest = NULL_TEST.exec(part)
    if (nullTest) {
      const column = unquote(nullTest[1]!)
      if (!columns.includes(column)) return null
      out.push(`${lanceIdent(column)} IS ${nullTest[2] ? 'NOT ' : ''}NULL`)
      continue
    }
    const castColumn = CAST_COMPARISON.exec(part)
    if (castColumn) {
      const column = unquote(castColumn[1]!)
      if (!columns.includes(column)) return null
      const op = castColumn[2] === '!=' ? '<>' : castColumn[2]
      // A date column against midnight compares as the date itself (Lance then skips the cast per row: ~2× faster);
      // only for a date: a finer timestamp cast to microseconds would not compare the same.
      const midnight = /^'(\d{4}-\d{2}-\d{2})(?: 00:00:00)?'$/.exec(castColumn[3]!)
      out.push(midnight && dates.has(column) ? `${lanceIdent(column)} ${op} date '${midnight[1]}'` : `CAST(${lanceIdent(column)} AS TIMESTAMP) ${op} timestamp ${castColumn[3]}`)
      continue
    }
    const match = COMPARISON.exec(part)
    if (!match) return null
    const column = unquote(match[1]!)
    if (!columns.includes(column)) return null
    const op = match[2] === '!=' ? '<>' : match[2]!
    const literal = match[3]!
    const cast = match[4]
    let value: string
    if (cast === 'DATE' && literal.startsWith("'")) value = `date ${literal}`
    else if ((cast === 'TIMESTAMP' || cast === undefined) && literal.startsWith("'")) value = cast ? `timestamp ${literal}` : literal
    else if (!literal.startsWith("'") && (cast === undefined || /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|FLOAT|DOUBLE|DECIMAL\(\d+,\s*\d+\))$/.test(cast))) value = literal
    else return null
    out.push(`${lanceIdent(column)} ${op} ${value}`)
  }
  return out.join(' AND ')
}

/** `(x)` → `x` when the outer parentheses enclose the whole text (DuckDB wraps some filters so). */
function unwrap(text: string): string {
  if (!text.startsWith('(') || !text.endsWith(')')) return text
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0 && i < text.length - 1) return text
  }
  return unwrap(text.slice(1, -1).trim())
}

/** `a AND b AND c` split at the top level (outside quotes); null when an OR or parenthesis makes it more than that. */
function splitAnd(filter: string): string[] | null {
  const parts: string[] = []
  let current = ''
  for (let i = 0; i < filter.length; i++) {
    const c = filter[i]!
    if (c === "'" || c === '"') {
      let j = i + 1
      while (j < filter.length && !(filter[j] === c && filter[j + 1] !== c)) j += filter[j] === c ? 2 : 1
      current += filter.slice(i, j + 1)
      i = j
    } else if (c === '(' || c === ')') {
      // Only the parentheses of a CAST( … AS TIMESTAMP) or a DECIMAL(p, s): anything else may group an OR.
      const castOpen = c === '(' && /CAST$/.test(current)
      const castClose = c === ')' && /CAST\([^()]* AS TIMESTAMP$/.test(current)
      if (!castOpen && !castClose && !/^\(\d+,\s*\d+\)/.test(filter.slice(i)) && !(c === ')' && /\(\d+,\s*\d+$/.test(current))) return null
      current += c
    } else if (filter.startsWith(' AND ', i)) {
      parts.push(current)
      current = ''
      i += 4
    } else if (filter.startsWith(' OR ', i)) return null
    else current += c
  }
  parts.push(current)
  return parts
}
