import { AppError, tokenizePredicate, userColumnsOnly, type PredicateToken } from '../../contract'
import { originalOffset, type TypedFilter } from './typedLiterals'

/** The filter a read sent Lance: as the user wrote it, and as Lance got it (dates typed). */
export interface SentFilter {
  original: string
  typed: TypedFilter
}

/**
 * Lance's "invalid input" errors (a predicate that does not parse, an unknown column in it, a wrong vector,
 * a text search without an FTS index) become `invalid_input` carrying Lance's own sentence, without the
 * Rust source paths. A filter that does not parse, or compares a date column with text, gets a sentence of its
 * own saying what was expected, and the span of the user's text it is about ({@link filterSyntaxError}).
 * Anything else is left for the namespace's own error mapping.
 */
export function queryInputError(error: unknown, filter?: SentFilter): AppError | undefined {
  if (error instanceof AppError || !(error instanceof Error)) return undefined
  const text = error.message
  const match = /(?:Invalid user input|Invalid input|InvalidInput)[,:]\s*([\s\S]*)/.exec(text)
  const noIndex = /no (?:inverted|FTS) index|Cannot perform full text search unless an INVERTED index/i.test(text)
  if (!match && !noIndex) return undefined
  const detail = cleanPaths(text).slice(0, 2000)
  const pointed = filter && !noIndex ? filterSyntaxError(text, filter) : undefined
  if (pointed) return new AppError('invalid_input', pointed.message, { detail, span: pointed.span, cause: error })
  const sentence = lanceSentence(match ? match[1]! : text)
  return new AppError('invalid_input', noIndex ? `Full-text search needs an FTS index: ${sentence}` : sentence, { detail, cause: error })
}

/** Lance builds this statement around a filter to parse it; its line and column positions count from its start. */
const STATEMENT_PREFIX = 'SELECT 1 FROM t WHERE '

/** sqlparser's names of tokens (its `Debug` form, in "No infix parser for token …") as written. */
const TOKEN_TEXT: Record<string, string> = {
  ShiftRight: '>>',
  ShiftLeft: '<<',
  Caret: '^',
  Ampersand: '&',
  Pipe: '|',
  Tilde: '~',
  ExclamationMark: '!',
  Sharp: '#',
  AtSign: '@',
  Colon: ':',
  Arrow: '->',
  LongArrow: '->>',
  Question: '?',
  Backslash: '\\',
  Spaceship: '<=>',
  DoubleEq: '==',
  Eq: '=',
  Neq: '<>',
  Lt: '<',
  Gt: '>',
  LtEq: '<=',
  GtEq: '>=',
  Plus: '+',
  Minus: '-',
  Mul: '*',
  Div: '/',
  Mod: '%',
  StringConcat: '||',
  LParen: '(',
  RParen: ')',
  Comma: ',',
  Period: '.',
  SemiColon: ';',
}

const OPERATORS_EXPECTED = 'a comparison (=, <>, <, <=, >, >=), AND, OR, LIKE, IN, IS or BETWEEN'

export interface PointedError {
  /** One sentence: what is wrong where, and what was expected. */
  message: string
  /** The part of the user's filter it is about (UTF-16 offsets). */
  span: { start: number; end: number }
}

/**
 * Lance's message about a filter, as a position in the user's filter and a sentence saying what was expected:
 * - a tokenizer error ("Unterminated string literal at Line: 1, Column: 30") gives its position;
 * - a parser error ("Expected: an expression, found: =", "No infix parser for token ShiftRight") names the token
 *   it stopped at, found here with the app's tokenizer (the first one where it cannot stand);
 * - a text compared with a date or timestamp column ("Received literal Utf8(…) and could not convert to literal
 *   of type 'Timestamp(…)'": a string the app could not type) names the string; the message shows the forms that work.
 * Undefined when the message is none of these (Lance's own sentence is shown then).
 */
export function filterSyntaxError(lanceText: string, filter: SentFilter): PointedError | undefined {
  const sent = filter.typed.text
  const original = filter.original
  const tokens = tokenizePredicate(original).filter((t) => t.kind !== 'space' && t.kind !== 'comment')
  const spanOf = (t: PredicateToken) => ({ start: t.start, end: t.end })
  const quote = (t: PredicateToken) => `\`${t.text.length > 40 ? `${t.text.slice(0, 40)}…` : t.text}\``

  const statement = `${STATEMENT_PREFIX}${sent} (`
  const at = lanceText.indexOf(statement)
  if (at >= 0 && /Error (?:parsing|tokenizing) statement: $/.test(lanceText.slice(Math.max(0, at - 40), at))) {
    const rest = lanceText.slice(at + statement.length)
    const end = rest.search(/\)(?:,\s*\/(?:usr\/local\/cargo|rustc)|\s{2}Caused by:|\s*$)/)
    const said = (end >= 0 ? rest.slice(0, end) : rest).replace(/^sql parser error:\s*/, '').trim()
    const located = /^(.*?)\s+at Line: (\d+), Column: (\d+)$/.exec(said)
    const what = located ? located[1]! : said
    if (located) {
      // A position in the statement (1-based line and column, in characters): back to the user's text.
      const offset = originalOffset(filter.typed, statementOffset(`${STATEMENT_PREFIX}${sent}`, Number(located[2]), Number(located[3])) - STATEMENT_PREFIX.length)
      const token = tokens.find((t) => t.start <= offset && offset < t.end) ?? tokens.find((t) => t.start >= offset)
      const span = token ? spanOf(token) : { start: Math.min(offset, original.length), end: original.length }
      if (/^Unterminated string literal/i.test(what) || token?.unterminated)
        return { message: `This text has no closing quote: end it with ${token?.text[0] ?? "'"} (a quote inside text is written twice: 'it''s').`, span }
      return { message: `${sentenceOf(what)} at ${token ? quote(token) : `character ${offset + 1}`}.`, span }
    }
    const infix = /^No infix parser for token (\w+)/.exec(what)
    if (infix) {
      const written = TOKEN_TEXT[infix[1]!] ?? infix[1]!
      const token = firstWhere(tokens, (t, prev) => t.text === written && isOperand(prev)) ?? tokens.find((t) => t.text === written)
      if (!token) return undefined
      return { message: `${quote(token)} is not an operator of filters: expected ${OPERATORS_EXPECTED}.`, span: spanOf(token) }
    }
    const expected = /^Expected:?\s*(.+?),\s*found:?\s*(.+?)(?:\s+at Line: \d+, Column: \d+)?$/.exec(what)
    if (expected) {
      const wanted = expected[1]!
      const found = expected[2]!
      const last = tokens[tokens.length - 1]
      if (found === 'EOF') {
        if (!last) return undefined
        const thing = wanted === 'an expression' ? 'a value or a column' : wanted === ')' ? 'a closing )' : wanted
        return { message: `The filter ends too soon: ${thing} is expected after ${quote(last)}.`, span: spanOf(last) }
      }
      // The first place the found token cannot stand: where a value is expected (after an operator or at the
      // start) for "an expression", after a value otherwise.
      const same = (t: PredicateToken) => t.text.toLowerCase() === found.toLowerCase() || (t.kind !== 'op' && t.value.toLowerCase() === found.toLowerCase())
      const token =
        (wanted === 'an expression' ? firstWhere(tokens, (t, prev) => same(t) && !isOperand(prev)) : firstWhere(tokens, (t, prev) => same(t) && isOperand(prev))) ?? tokens.find(same)
      if (!token) return undefined
      const thing = wanted === 'an expression' ? 'a value or a column' : wanted
      return { message: `Expected ${thing} where ${quote(token)} stands.`, span: spanOf(token) }
    }
    return undefined
  }

  // A string compared with a date or timestamp column that the app could not read as a date.
  const literal = /Received literal Utf8\("((?:[^"\\]|\\.)*)"\) and could not convert to literal of type '([^']+)'/.exec(lanceText)
  if (literal) {
    const value = literal[1]!.replace(/\\(.)/g, '$1')
    const type = literal[2]!
    const token = tokens.find((t) => (t.kind === 'string' || t.kind === 'dstring') && t.value === value)
    if (!token) return undefined
    const date = /^Date/.test(type)
    // The quoted forms the app types itself (src/core/query/typedLiterals.ts), said as the fix.
    const forms = date ? "a date as 'YYYY-MM-DD'" : `a date as 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'${/Some\(/.test(type) ? ' (in UTC, or with an offset: Z, +05:30)' : ''}`
    return { message: `${quote(token)} is text that is no ${date ? 'date' : 'date or time'}, compared with a ${date ? 'date' : 'timestamp'} column: write ${forms}.`, span: spanOf(token) }
  }
  return undefined
}

/** The first token that `test` accepts, given the significant token before it. */
function firstWhere(tokens: PredicateToken[], test: (t: PredicateToken, prev: PredicateToken | undefined) => boolean): PredicateToken | undefined {
  return tokens.find((t, i) => test(t, tokens[i - 1]))
}

/** A token after which an operator may stand: a value, a column, a closing parenthesis. */
function isOperand(t: PredicateToken | undefined): boolean {
  if (!t) return false
  if (t.kind === 'op') return t.text === ')'
  if (t.kind === 'ident') return !['and', 'or', 'not', 'in', 'like', 'ilike', 'between', 'is', 'case', 'when', 'then', 'else'].includes(t.value.toLowerCase())
  return true
}

/** sqlparser's words as a sentence ("Expected: an expression" → "Expected a value or a column"). */
function sentenceOf(what: string): string {
  const text = what.replace(/^Expected: an expression/, 'Expected a value or a column').replace(/^Expected:\s*/, 'Expected ').replace(/,\s*found:\s*/, ', found ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** The UTF-16 offset of a 1-based line and column (counted in characters, as Rust's tokenizer does) in `text`. */
function statementOffset(text: string, line: number, column: number): number {
  const lines = text.split('\n')
  let offset = 0
  for (let i = 0; i < line - 1 && i < lines.length; i += 1) offset += lines[i]!.length + 1
  const chars = Array.from(lines[Math.min(line, lines.length) - 1] ?? '')
  return offset + chars.slice(0, Math.max(0, column - 1)).join('').length
}

/** The first sentence of a lance message, without repeats ("Caused by: …") and source paths. */
function lanceSentence(text: string): string {
  // Only the user's columns in Lance's lists, and its suggestion named as an identifier (backticks).
  const first = userColumnsOnly(cleanPaths(text).split(/\s{2}Caused by:|\n/)[0]!.replace(/^(Invalid user input|lance error):\s*/i, '').trim())
  return first.length > 500 ? `${first.slice(0, 500)}…` : first
}

function cleanPaths(text: string): string {
  return text.replace(/,?\s*\/(usr\/local\/cargo|rustc)\/[^\s,]+/g, '')
}
