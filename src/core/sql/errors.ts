import { AppError } from '../../contract'
import { lineColumn } from './statement'

/** A text edit made to the user's SQL (a catalog table's name → the DuckDB table holding it). */
export interface Replacement {
  start: number
  end: number
  text: string
  /** The name as the user wrote it, for messages that quote the replacement. */
  original: string
}

/** `sql` with the replacements made (they do not overlap). */
export function rewrite(sql: string, replacements: readonly Replacement[]): string {
  let out = ''
  let at = 0
  for (const r of [...replacements].sort((a, b) => a.start - b.start)) {
    out += sql.slice(at, r.start) + r.text
    at = r.end
  }
  return out + sql.slice(at)
}

/** An offset in the rewritten text → the offset in the user's text. */
function originalOffset(replacements: readonly Replacement[], offset: number): number {
  let shift = 0
  for (const r of [...replacements].sort((a, b) => a.start - b.start)) {
    const rewrittenStart = r.start + shift
    if (offset < rewrittenStart) break
    if (offset < rewrittenStart + r.text.length) return r.start
    shift += r.text.length - (r.end - r.start)
  }
  return offset - shift
}

/**
 * A DuckDB error as the user's: `invalid_input` with the span of the fault in the user's text (DuckDB's `LINE n:`
 * caret, mapped back through the replacements), the stand-in names turned back into the names written, and DuckDB's
 * candidate bindings as the hint; an interrupt is `cancelled` (or `timeout`), running out of memory `unavailable`.
 */
export function sqlError(error: unknown, sql: string, rewritten: string, replacements: readonly Replacement[]): AppError {
  if (error instanceof AppError) return error
  const raw = error instanceof Error ? error.message : String(error)
  let message = raw.split('\n')[0]!.trim()
  for (const r of replacements) message = message.replaceAll(r.text, r.original).replaceAll(r.text.split(' AS ')[0]!, r.original)
  message = message.replace(/__lcb_(?:[pt]\d+|scan\(\d+\))\./g, '').replace(/"?__lcb_(?:[pt]\d+|scan\(\d+\))"?/g, 'the table')
  if (/^INTERRUPT Error/i.test(message)) return new AppError('cancelled', 'The query was cancelled')
  if (/^Out of Memory Error/i.test(message)) {
    return new AppError('unavailable', `The query needs more memory than the SQL engine may use: ${message.replace(/^Out of Memory Error:\s*/i, '')}`, {
      // The figures DuckDB gives are its own limit: three quarters of LCB_SQL_MEMORY_MB (instance.ts memorySplit).
      hint: 'Aggregate or filter more, or raise LCB_SQL_MEMORY_MB (DuckDB works in three quarters of it; the rest holds the tables read from Lance)',
    })
  }
  const candidates = /Candidate bindings:\s*(.+)/.exec(raw)?.[1]
  const hint = candidates ? `Did you mean ${candidates.split(',')[0]!.trim().replace(/__lcb_(?:[pt]\d+|scan\(\d+\))\./g, '').replace(/^"?(?:[^".]+\.)?/, '"').replace(/^""/, '"')}?` : undefined
  const at = caret(raw, rewritten)
  const data: { span?: { start: number; end: number }; hint?: string; detail: string } = { detail: raw.replace(/__lcb_(?:[pt]\d+|scan\(\d+\))/g, 'table') }
  if (hint) data.hint = hint
  let text = message.replace(/^[A-Za-z ]+ Error:\s*/, '')
  text = text.charAt(0).toUpperCase() + text.slice(1)
  if (at !== null) {
    const start = originalOffset(replacements, at)
    const token = /^("([^"]|"")*"|'([^']|'')*'|\w+|\S)/.exec(sql.slice(start))?.[0] ?? ''
    data.span = { start, end: start + Math.max(1, token.length) }
    text = `${text.replace(/[.!]$/, '')} (${lineColumn(sql, start)})`
  }
  return new AppError('invalid_input', text, data)
}

/** What planning (src/core/sql/pushdown.ts) puts before the statement. */
export const EXPLAIN_PREFIX = 'EXPLAIN (FORMAT json) '

/** The offset DuckDB's `LINE n: …` + caret line points at, in the text it was given. */
function caret(message: string, text: string): number | null {
  const match = /LINE (\d+): (.*)\n(\s*)\^/.exec(message)
  if (!match) return null
  const lineIndex = Number(match[1]) - 1
  let shown = match[2]!
  let column = match[3]!.length - `LINE ${match[1]}: `.length
  // Planning runs the statement behind EXPLAIN: the first line shows that prefix.
  if (lineIndex === 0 && shown.startsWith(EXPLAIN_PREFIX)) {
    shown = shown.slice(EXPLAIN_PREFIX.length)
    column -= EXPLAIN_PREFIX.length
  }
  const lines = text.split('\n')
  const line = lines[lineIndex]
  if (line === undefined) return null
  const lineStart = lines.slice(0, lineIndex).reduce((sum, l) => sum + l.length + 1, 0)
  // DuckDB shows long lines cut, between "...": find the part shown in the line.
  const body = shown.replace(/^\.\.\./, '').replace(/\.\.\.$/, '')
  const from = line.indexOf(body)
  const lead = shown.startsWith('...') ? 3 : 0
  if (from < 0) return lineStart + Math.min(Math.max(0, column), line.length)
  return lineStart + from + Math.max(0, column - lead)
}
