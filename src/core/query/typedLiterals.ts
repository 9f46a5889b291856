import { DataType, TimeUnit, type Schema } from 'apache-arrow'
import { tokenizePredicate, type PredicateToken } from '../../contract'

/**
 * A quoted date compared with a date or timestamp column, as DuckDB reads it: `taken_at > '2025-06-01'` is
 * `taken_at > TIMESTAMP '2025-06-01 00:00:00'`. Lance (DataFusion) refuses the string ("could not convert to
 * literal of type Timestamp"), so before a filter goes to Lance each such string becomes a typed literal.
 *
 * Only where the meaning is certain: the string is compared (`=`, `<>`, `<`, …, `BETWEEN … AND …`, `IN (…)`)
 * directly with a column of the table whose type is a date or a timestamp, and it reads as a calendar date
 * (`YYYY-MM-DD`) or, for a timestamp column, a date and time (`YYYY-MM-DD HH:MM[:SS[.fraction]]`, `T` allowed,
 * an optional `Z` or `±HH:MM` offset). Anything else — a string compared with a text column, a string inside
 * another string, a string that is no date, an expression on the column — is left as written for Lance to judge.
 * The predicate is read with the app's own tokenizer of Lance's dialect (src/contract/predicate.ts), never by a
 * pattern over the whole text. A zoned column's literal without an offset is read in UTC, as the grid shows it; it
 * is cast to a UTC timestamp (`arrow_cast(…)`), as Lance reads `TIMESTAMP '…'` as a wall-clock time in the column's
 * own zone (its offset dropped): `TIMESTAMP '2025-06-01 00:00:00+00:00'` against a Europe/Zurich column means
 * 22:00 UTC the day before.
 */
export interface TypedFilter {
  /** The filter as Lance gets it. */
  text: string
  /** Each replaced string: where it stood in the original and where its typed literal stands in `text`. */
  edits: { from: number; to: number; newFrom: number; newTo: number }[]
}

type TemporalKind = 'date' | 'timestamp' | 'zoned'
type Temporal = { name: string; kind: TemporalKind; unit: string }

const COMPARISONS = new Set(['=', '==', '<>', '!=', '<', '<=', '>', '>='])

export function typeDateLiterals(filter: string, schema: Schema): TypedFilter {
  const all = tokenizePredicate(filter)
  const tokens = all.filter((t) => t.kind !== 'space' && t.kind !== 'comment')
  const kinds = temporalColumns(schema)
  const replacements = new Map<PredicateToken, string>()
  if (kinds.size === 0) return { text: filter, edits: [] }

  const word = (t: PredicateToken | undefined) => (t?.kind === 'ident' ? t.value.toLowerCase() : undefined)
  const op = (t: PredicateToken | undefined, text: string) => t?.kind === 'op' && t.text === text
  /** The column `tokens[i]` names, when it stands alone (no function call, struct field or cast). */
  const columnAt = (i: number): Temporal | undefined => {
    const t = tokens[i]
    if (!t || (t.kind !== 'ident' && t.kind !== 'backtick') || t.unterminated) return undefined
    if (op(tokens[i - 1], '.') || op(tokens[i + 1], '.') || op(tokens[i + 1], '(') || op(tokens[i + 1], '::') || op(tokens[i - 1], '::')) return undefined
    // Bare names match columns whatever their case (as Lance does); backticked ones exactly.
    return t.kind === 'backtick' ? kinds.get(t.value) : [...kinds.values()].find((c) => c.name.toLowerCase() === t.value.toLowerCase())
  }
  /** Queue `tokens[i]` for rewriting when it is a plain string that reads as a date (or time) for `kind`. */
  const retype = (i: number, column: Temporal) => {
    const t = tokens[i]
    if (!t || (t.kind !== 'string' && t.kind !== 'dstring') || t.unterminated) return
    // `DATE '…'`, `TIMESTAMP '…'` are typed already.
    const before = word(tokens[i - 1])
    if (before === 'date' || before === 'timestamp' || before === 'time' || before === 'interval') return
    const typed = typedLiteral(t.value, column.kind, column.unit)
    if (typed !== undefined) replacements.set(t, typed)
  }
  // A string with its comparison and column on the other side, but not one end of a longer arithmetic
  // (`taken_at > '2025-06-01' + x`): the next token must end the comparison.
  const endsOperand = (t: PredicateToken | undefined) => !t || (t.kind === 'ident' && ['and', 'or'].includes(t.value.toLowerCase())) || op(t, ')')
  const startsOperand = (t: PredicateToken | undefined) => !t || (t.kind === 'ident' && ['and', 'or', 'not', 'where'].includes(t.value.toLowerCase())) || op(t, '(')

  for (let i = 0; i < tokens.length; i += 1) {
    const kind = columnAt(i)
    if (kind === undefined) continue
    const next = tokens[i + 1]
    // column <op> 'text'
    if (next?.kind === 'op' && COMPARISONS.has(next.text) && endsOperand(tokens[i + 3]) && startsOperand(tokens[i - 1])) retype(i + 2, kind)
    // 'text' <op> column
    const prev = tokens[i - 1]
    if (prev?.kind === 'op' && COMPARISONS.has(prev.text) && startsOperand(tokens[i - 3]) && endsOperand(tokens[i + 1])) retype(i - 2, kind)
    // column [NOT] BETWEEN 'a' AND 'b'
    let j = i + 1
    if (word(tokens[j]) === 'not') j += 1
    if (word(tokens[j]) === 'between' && word(tokens[j + 2]) === 'and' && startsOperand(tokens[i - 1]) && endsOperand(tokens[j + 4])) {
      retype(j + 1, kind)
      retype(j + 3, kind)
    }
    // column [NOT] IN ('a', 'b', …): only a list of plain literals.
    if (word(tokens[j]) === 'in' && op(tokens[j + 1], '(') && startsOperand(tokens[i - 1])) {
      const items: number[] = []
      let k = j + 2
      while (tokens[k] && (tokens[k]!.kind === 'string' || tokens[k]!.kind === 'dstring')) {
        items.push(k)
        if (op(tokens[k + 1], ',')) k += 2
        else break
      }
      if (items.length > 0 && op(tokens[items[items.length - 1]! + 1], ')')) for (const item of items) retype(item, kind)
    }
  }

  if (replacements.size === 0) return { text: filter, edits: [] }
  let text = ''
  let at = 0
  const edits: TypedFilter['edits'] = []
  for (const t of all) {
    const typed = replacements.get(t)
    if (typed === undefined) continue
    text += filter.slice(at, t.start)
    edits.push({ from: t.start, to: t.end, newFrom: text.length, newTo: text.length + typed.length })
    text += typed
    at = t.end
  }
  text += filter.slice(at)
  return { text, edits }
}

/** Where an offset into the typed filter stands in the original one (inside a typed literal: that string). */
export function originalOffset(typed: TypedFilter, offset: number, end = false): number {
  let shift = 0
  for (const e of typed.edits) {
    if (offset < e.newFrom) break
    if (offset <= e.newTo) return end ? e.to : e.from
    shift = e.to - e.newTo
  }
  return offset + shift
}

const UNIT_NAMES: Record<number, string> = { [TimeUnit.SECOND]: 'Second', [TimeUnit.MILLISECOND]: 'Millisecond', [TimeUnit.MICROSECOND]: 'Microsecond', [TimeUnit.NANOSECOND]: 'Nanosecond' }

/** The date and timestamp columns of a schema (top level), by name, with the unit of a timestamp (Arrow's name). */
function temporalColumns(schema: Schema): Map<string, Temporal> {
  const kinds = new Map<string, Temporal>()
  for (const field of schema.fields) {
    if (DataType.isDate(field.type)) kinds.set(field.name, { name: field.name, kind: 'date', unit: '' })
    else if (DataType.isTimestamp(field.type))
      kinds.set(field.name, { name: field.name, kind: field.type.timezone ? 'zoned' : 'timestamp', unit: UNIT_NAMES[field.type.unit] ?? 'Microsecond' })
  }
  return kinds
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?$/

/**
 * The typed literal a string stands for in a comparison with a `kind` column, or undefined when it is no
 * valid date (a date column takes a date alone: DuckDB's cast of a time of day to a date is not guessed at).
 */
export function typedLiteral(value: string, kind: TemporalKind, unit = 'Microsecond'): string | undefined {
  const match = DATE_TIME.exec(value.trim())
  if (!match) return undefined
  const [, y, mo, d, h, mi, s, fraction, zone] = match
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined
  const date = `${y}-${mo}-${d}`
  if (kind === 'date') return h === undefined && zone === undefined ? `DATE '${date}'` : undefined
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(s ?? 0) > 59)) return undefined
  if (h === undefined && zone !== undefined) return undefined // `2025-06-01Z`: no such form
  if (zone && zone !== 'Z' && (Number(zone.slice(1, 3)) > 14 || Number(zone.slice(-2)) > 59)) return undefined
  const time = `${h ?? '00'}:${mi ?? '00'}:${s ?? '00'}${fraction ?? ''}`
  // Lance reads `Z` and `±HH:MM`; a zoned column's time without an offset is read in UTC (as the grid shows it).
  const offset = zone === undefined ? (kind === 'zoned' ? '+00:00' : '') : zone === 'Z' ? '+00:00' : zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`
  if (kind === 'zoned') return `arrow_cast('${date} ${time}${offset}', 'Timestamp(${unit}, Some("UTC"))')`
  return `TIMESTAMP '${date} ${time}${offset}'`
}
