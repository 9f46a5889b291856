/** A piece of the editor's text: the SQL sent and where it starts in the whole text (to place an error's span). */
export interface Statement {
  sql: string
  from: number
}

/**
 * The `[start, end)` ranges of the statements in `text`, split at each `;` that is code — not inside a string
 * ('…'), a quoted name ("…"), a line comment (--…) or a block comment. Each range ends after its `;`.
 */
export function statementRanges(text: string): [number, number][] {
  const ranges: [number, number][] = []
  let start = 0
  let i = 0
  while (i < text.length) {
    const c = text[i]
    const next = text[i + 1]
    if (c === "'" || c === '"') {
      // A quote ends at the next one not doubled ('' inside a string is a quote).
      i += 1
      while (i < text.length && !(text[i] === c && text[i + 1] !== c)) i += text[i] === c ? 2 : 1
      i += 1
    } else if (c === '-' && next === '-') {
      const end = text.indexOf('\n', i)
      i = end < 0 ? text.length : end + 1
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2)
      i = end < 0 ? text.length : end + 2
    } else if (c === ';') {
      ranges.push([start, i + 1])
      start = i + 1
      i += 1
    } else i += 1
  }
  if (start < text.length || ranges.length === 0) ranges.push([start, text.length])
  return ranges
}

/** A range's statement: its text without the whitespace around it and without its `;`, or null when it holds none. */
function trimmed(text: string, [start, end]: [number, number]): Statement | null {
  let from = start
  let to = end
  if (text[to - 1] === ';') to -= 1
  while (from < to && /\s/.test(text[from]!)) from += 1
  while (to > from && /\s/.test(text[to - 1]!)) to -= 1
  return to > from ? { sql: text.slice(from, to), from } : null
}

/**
 * What Run (Ctrl/Cmd+Enter) sends: the selection when there is one, else the statement under the caret — the one
 * the caret is in, or ends just before it (`select 1;|`); in blank text after the last statement, that statement.
 */
export function statementAt(text: string, selection: { from: number; to: number }): Statement | null {
  if (selection.to > selection.from) return trimmed(text, [selection.from, selection.to])
  const caret = selection.from
  let previous: Statement | null = null
  for (const range of statementRanges(text)) {
    const statement = trimmed(text, range)
    if (range[0] <= caret && caret <= range[1]) return statement ?? previous
    if (statement) previous = statement
  }
  return previous
}

/** The 1-based line and column of `offset` in `text` (a column counts UTF-16 units, as the editor's does). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)))
  const lastBreak = before.lastIndexOf('\n')
  return { line: before.split('\n').length, column: before.length - lastBreak }
}
