/**
 * Filter predicates (Lance's `where` dialect) checked against the table's columns before they run, so a
 * predicate cannot silently mean something else. Lance parses with a MySQL-like dialect: `'…'` and `"…"` are
 * both string literals (a doubled quote is one quote), `` `…` `` is an identifier, and bare
 * identifiers match columns without regard to case. So `"Wildlife Size" = 'Large'` (double quotes, as in
 * Postgres) compares two constants and returns no rows without an error. (A backslash is no escape: Lance reads
 * `'a\'` as the string `a\`.) Bare names match columns whatever their case; backticked ones exactly. Shared by the renderer (a warning
 * under the Filter rows box, with the fix one click away) and core (Lance's own messages, cleaned).
 */

export type PredicateTokenKind = 'space' | 'string' | 'dstring' | 'backtick' | 'ident' | 'number' | 'op' | 'comment'

export interface PredicateToken {
  kind: PredicateTokenKind
  /** The token as written (with its quotes). */
  text: string
  /** The unquoted value of a string or backticked identifier; the text otherwise. */
  value: string
  start: number
  end: number
  /** A string or identifier whose closing quote is missing. */
  unterminated?: boolean
}

const IDENT_START = /[\p{L}_]/u
const IDENT_PART = /[\p{L}\p{N}_$]/u
const TWO_CHAR_OPS = new Set(['<=', '>=', '<>', '!=', '==', '||', '::', '->', '<<', '>>'])

/** Split a predicate into tokens; never throws (Lance reports what does not parse). Positions are UTF-16 offsets. */
export function tokenizePredicate(text: string): PredicateToken[] {
  const tokens: PredicateToken[] = []
  let i = 0
  const push = (kind: PredicateTokenKind, start: number, end: number, value?: string, unterminated?: boolean) =>
    tokens.push({ kind, text: text.slice(start, end), value: value ?? text.slice(start, end), start, end, ...(unterminated ? { unterminated } : {}) })
  while (i < text.length) {
    const c = text[i]!
    const start = i
    if (/\s/.test(c)) {
      while (i < text.length && /\s/.test(text[i]!)) i += 1
      push('space', start, i)
    } else if (c === '-' && text[i + 1] === '-') {
      while (i < text.length && text[i] !== '\n') i += 1
      push('comment', start, i)
    } else if (c === "'" || c === '"' || c === '`') {
      // A doubled quote is one quote. No backslash escapes: Lance's tokenizer has none.
      let value = ''
      let closed = false
      i += 1
      while (i < text.length) {
        const d = text[i]!
        if (d === c) {
          if (text[i + 1] === c) {
            value += c
            i += 2
          } else {
            i += 1
            closed = true
            break
          }
        } else {
          value += d
          i += 1
        }
      }
      push(c === "'" ? 'string' : c === '"' ? 'dstring' : 'backtick', start, i, value, !closed)
    } else if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(text[i + 1] ?? ''))) {
      while (i < text.length && /[0-9.]/.test(text[i]!)) i += 1
      if (/[eE]/.test(text[i] ?? '') && /[-+0-9]/.test(text[i + 1] ?? '')) {
        i += 2
        while (i < text.length && /[0-9]/.test(text[i]!)) i += 1
      }
      push('number', start, i)
    } else if (IDENT_START.test(c)) {
      while (i < text.length && IDENT_PART.test(text[i]!)) i += 1
      push('ident', start, i)
    } else {
      i += TWO_CHAR_OPS.has(text.slice(i, i + 2)) ? 2 : 1
      push('op', start, i)
    }
  }
  return tokens
}

/** Words of the dialect that are never column names where they stand (SQL keywords, literals, operators). */
const KEYWORDS = new Set(
  (
    'and or not is null true false like ilike similar rlike regexp in between case when then else end cast try_cast as ' +
    'distinct from date time timestamp interval escape exists any all some asc desc nulls first last to at zone div mod ' +
    'unknown with without array struct'
  ).split(' '),
)
/** Words after which a string is a typed literal (`date '2024-01-01'`), not a stray column name. */
const LITERAL_PREFIXES = new Set(['date', 'time', 'timestamp', 'interval', 'escape'])
const COMPARISONS = new Set(['=', '==', '<>', '!=', '<', '>', '<=', '>=', 'like', 'ilike', 'rlike', 'regexp'])

export interface PredicateHint {
  /** A string literal equal to a column name, or an identifier that names no column but nearly matches one. */
  kind: 'quoted-column' | 'unknown-column'
  /** What was written, as written (`"Wildlife Size"`, `wildlife_size`). */
  found: string
  /** The column it most likely means. */
  column: string
  /** One sentence for the user, ending with "Did you mean the column `…`?". */
  message: string
  /** The whole predicate with this one fix applied (the column in backticks). */
  fixed: string
}

/** A column name as an identifier of the dialect: in backticks (a backtick doubled). */
export function backtickIdentifier(name: string): string {
  return `\`${name.replaceAll('`', '``')}\``
}

/** Names compared "up to case and spaces": lower case, without spaces, underscores, hyphens or dots. */
function loose(name: string): string {
  return name.toLowerCase().replace(/[\s_\-.]+/g, '')
}

/**
 * What in `predicate` may not mean what it says, given the table's `columns` (top-level names):
 * - a string (`"Wildlife Size"`, `'score'`) equal to a column's name (up to case) where a column would stand
 *   (not the value side of a comparison with a column, not a typed literal such as `date '…'`);
 * - an identifier (or a run of bare words, `Wildlife Size`) naming no column but matching one up to case and
 *   spaces (`wildlife_size`, `WildlifeSize`).
 * Each hint carries the predicate with the fix applied. Nothing here refuses a predicate: Lance decides.
 */
export function checkPredicate(predicate: string, columns: readonly string[]): PredicateHint[] {
  const all = tokenizePredicate(predicate)
  const tokens = all.filter((t) => t.kind !== 'space' && t.kind !== 'comment')
  const exact = new Set(columns)
  const byLower = new Map<string, string>()
  const byLoose = new Map<string, string>()
  for (const c of columns) {
    if (!byLower.has(c.toLowerCase())) byLower.set(c.toLowerCase(), c)
    if (!byLoose.has(loose(c))) byLoose.set(loose(c), c)
  }
  const hints: PredicateHint[] = []
  const fix = (start: number, end: number, column: string) => predicate.slice(0, start) + backtickIdentifier(column) + predicate.slice(end)
  const lower = (t: PredicateToken | undefined) => (t?.kind === 'ident' ? t.value.toLowerCase() : t?.kind === 'op' ? t.text : undefined)
  const isColumnRef = (t: PredicateToken | undefined) =>
    !!t && ((t.kind === 'ident' && !KEYWORDS.has(t.value.toLowerCase())) || t.kind === 'backtick' || (t.kind === 'op' && t.text === ')'))

  for (let i = 0; i < tokens.length; i += 1) {
    const t = tokens[i]!
    const prev = tokens[i - 1]
    const next = tokens[i + 1]
    if (t.kind === 'string' || t.kind === 'dstring') {
      if (t.unterminated) continue
      const column = exact.has(t.value) ? t.value : byLower.get(t.value.toLowerCase())
      if (column === undefined) continue
      if (prev?.kind === 'ident' && LITERAL_PREFIXES.has(prev.value.toLowerCase())) continue
      if (t.kind === 'string') {
        // `label = 'label'` compares a column with a value that happens to be a column's name: fine. So is a
        // string in a list or a function's arguments (`IN ('a', 'score')`, `contains(tags, 'score')`).
        const prevOp = lower(prev)
        const nextOp = lower(next)
        if (prevOp !== undefined && COMPARISONS.has(prevOp) && isColumnRef(tokens[i - 2])) continue
        if (nextOp !== undefined && COMPARISONS.has(nextOp) && isColumnRef(tokens[i + 2])) continue
        if (prev?.kind === 'op' && (prev.text === '(' || prev.text === ',')) continue
        if (prevOp === 'in' || prevOp === 'like' || prevOp === 'ilike') continue
      }
      const quote = t.kind === 'dstring' ? 'double quotes make text in Lance filters' : 'single quotes make text'
      hints.push({
        kind: 'quoted-column',
        found: t.text,
        column,
        message: `${t.text} is a string here, not a column (${quote}). Did you mean the column ${backtickIdentifier(column)}?`,
        fixed: fix(t.start, t.end, column),
      })
    } else if (t.kind === 'ident' || t.kind === 'backtick') {
      if (t.kind === 'ident') {
        const word = t.value.toLowerCase()
        if (KEYWORDS.has(word)) continue
        if (next?.kind === 'op' && next.text === '(') continue // a function
        if (prev?.kind === 'op' && (prev.text === '.' || prev.text === '::')) continue // a struct field or a type
        if (prev?.kind === 'ident' && prev.value.toLowerCase() === 'as') continue // CAST(x AS type)
        if (byLower.has(word)) continue
        // A run of bare words naming one column with spaces (`Wildlife Size = 'Large'`).
        let j = i
        while (tokens[j + 1]?.kind === 'ident' && !KEYWORDS.has(tokens[j + 1]!.value.toLowerCase()) && tokens[j + 1]!.start > tokens[j]!.end) j += 1
        if (j > i) {
          const run = predicate.slice(t.start, tokens[j]!.end)
          const column = byLoose.get(loose(run))
          if (column !== undefined) {
            hints.push({ kind: 'unknown-column', found: run, column, message: `There is no column ${t.value}: a name with spaces goes in backticks. Did you mean the column ${backtickIdentifier(column)}?`, fixed: fix(t.start, tokens[j]!.end, column) })
            i = j
            continue
          }
        }
      } else if (t.unterminated || exact.has(t.value)) continue // backticked names match exactly
      const column = byLoose.get(loose(t.value))
      if (column === undefined) continue
      hints.push({ kind: 'unknown-column', found: t.text, column, message: `There is no column ${t.text}. Did you mean the column ${backtickIdentifier(column)}?`, fixed: fix(t.start, t.end, column) })
    }
  }
  return hints
}

/** Lance's own columns, which it lists among "valid fields" though no table has them in its schema. */
export const LANCE_INTERNAL_COLUMN = /^(?:[^.]+\.)?_(?:rowid|rowaddr|rowoffset|row_last_updated_at_version|row_created_at_version)$/

/**
 * A Lance message with only the user's columns: Lance's internal ones (`_rowid`, `_rowaddr`,
 * `_row_last_updated_at_version`, …) are taken out of its "Valid fields are …" lists, and its suggestion
 * "Did you mean 'x'?" (single quotes would make a string) names the column in backticks.
 */
export function userColumnsOnly(message: string): string {
  const listed = message.replace(/(Valid fields are )((?:"(?:[^"]|"")*"|[^,".\s]+(?:\.[^,".\s]+)?)(?:, (?:"(?:[^"]|"")*"|[^,".\s]+(?:\.[^,".\s]+)?))*)/g, (_all, lead: string, list: string) => {
    const items = list.match(/"(?:[^"]|"")*"|[^,\s]+/g) ?? []
    const kept = items.filter((item) => !LANCE_INTERNAL_COLUMN.test(item.replace(/^"|"$/g, '')))
    return lead + kept.join(', ')
  })
  // Lance's advice to use double quotes is DataFusion's, and wrong here: double quotes make a string in Lance.
  return listed
    .replace(/\s*You can use double quotes to refer to the .*? column or set the datafusion\.sql_parser\.enable_ident_normalization configuration\./g, '')
    .replace(/Did you mean '((?:[^']|'')*)'\?/g, (_all, name: string) => `Did you mean the column ${backtickIdentifier(name.replaceAll("''", "'"))}?`)
}
