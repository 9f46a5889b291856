import { EditorState } from '@codemirror/state'
import { CompletionContext, type CompletionResult, type CompletionSource } from '@codemirror/autocomplete'
import { ensureSyntaxTree } from '@codemirror/language'
import { describe, expect, it } from 'vitest'
import { completionSchema } from '../../src/renderer/features/sql/completion'
import { sqlLanguage } from '../../src/renderer/features/sql/editorSetup'
import { elapsedText, errorPosition, errorSpan, statusText } from '../../src/renderer/features/sql/status'
import { lineColumn, statementAt, statementRanges } from '../../src/renderer/features/sql/statements'
import type { SqlQueryInfo } from '../../src/contract'

// The query view's pure parts: what Run sends (the statement under the caret, or the selection), where an error
// stands (line and column, the span in the whole text), the status words, and the completion schema.

const caret = (text: string) => {
  const at = text.indexOf('|')
  return { text: text.replace('|', ''), selection: { from: at, to: at } }
}
const runAt = (marked: string) => {
  const { text, selection } = caret(marked)
  return statementAt(text, selection)?.sql ?? null
}

describe('the statement under the caret', () => {
  it('runs the statement the caret is in, or the one just before it', () => {
    expect(runAt('SELECT 1;\nSELECT |2;\nSELECT 3')).toBe('SELECT 2')
    expect(runAt('SELECT 1;|\nSELECT 2')).toBe('SELECT 1')
    expect(runAt('|SELECT 1; SELECT 2')).toBe('SELECT 1')
    expect(runAt('SELECT 1;\nSELECT 2;\n\n|')).toBe('SELECT 2')
    expect(runAt('SELECT 1;\nSELECT 2|')).toBe('SELECT 2')
    expect(runAt('  |  ')).toBeNull()
  })

  it('does not split at a ; inside a string, a quoted name or a comment', () => {
    expect(runAt("SELECT 'a;b', \"c;d\" -- e;f\n/* g;h */ FROM t|; SELECT 2")).toBe("SELECT 'a;b', \"c;d\" -- e;f\n/* g;h */ FROM t")
    expect(runAt("SELECT 'it''s; fine' AS x|")).toBe("SELECT 'it''s; fine' AS x")
    expect(statementRanges("SELECT 'x;';SELECT 2")).toEqual([
      [0, 12],
      [12, 20],
    ])
  })

  it('runs the selection when there is one, and knows where it starts', () => {
    const text = 'SELECT 1;\nSELECT 2 FROM t WHERE x > 1'
    const from = text.indexOf('SELECT 2')
    expect(statementAt(text, { from: from - 1, to: text.length })).toEqual({ sql: 'SELECT 2 FROM t WHERE x > 1', from })
  })
})

describe('where an error stands', () => {
  it('counts lines and columns from 1', () => {
    expect(lineColumn('abc', 0)).toEqual({ line: 1, column: 1 })
    expect(lineColumn('ab\ncd\nef', 7)).toEqual({ line: 3, column: 2 })
  })

  it("moves the engine's span (in the statement sent) to the whole text", () => {
    const text = 'SELECT 1;\nSELECT region\nFROM shop.customers\nWHERE regoin = 1'
    const statement = statementAt(text, { from: text.length, to: text.length })!
    const start = statement.sql.indexOf('regoin')
    const run = { phase: 'failed' as const, statement, error: { code: 'invalid_input' as const, message: 'no column', span: { start, end: start + 6 } } }
    const span = errorSpan(run)!
    expect(text.slice(span.from, span.to)).toBe('regoin')
    expect(errorPosition(run, text)).toEqual({ line: 4, column: 7 })
    expect(statusText(run, text)).toBe('Failed at line 4, column 7')
  })
})

describe('the status line', () => {
  const info = (over: Partial<SqlQueryInfo>): SqlQueryInfo => ({ queryId: 'q1', connectionId: 'c', state: 'done', columns: [], done: true, rowCount: 1234, rowsSoFar: 1234, elapsedMs: 87, readVersions: [], ...over })
  const statement = { sql: 'SELECT 1', from: 0 }
  it('names the row count and the time taken', () => {
    expect(statusText({ phase: 'result', statement, info: info({}) }, '')).toBe('1,234 rows in 87 ms')
    expect(statusText({ phase: 'result', statement, info: info({ rowCount: 1, rowsSoFar: 1, elapsedMs: 1520 }) }, '')).toBe('1 row in 1.52 s')
    expect(statusText({ phase: 'result', statement, info: info({ state: 'running', done: false, rowCount: null, rowsSoFar: 200, elapsedMs: 3000 }) }, '')).toBe('Running… 200 rows so far · 3.00 s')
    expect(statusText({ phase: 'result', statement, info: info({ state: 'cancelled', done: false, rowCount: null, rowsSoFar: 0, elapsedMs: 400 }) }, '')).toBe('Cancelled after 0 rows · 400 ms')
    expect(statusText({ phase: 'result', statement, info: info({ rowCount: 1_000_000, rowsSoFar: 1_000_000, capped: true, elapsedMs: 2100 }) }, '')).toBe(
      'The first 1,000,000 rows in 2.10 s; the rest is not kept (narrow the query, or Save as table… to keep all of it)',
    )
    // Capped while the query is still open (its state running: the rest is never read): the same words, not "Running…".
    expect(statusText({ phase: 'result', statement, info: info({ state: 'running', rowCount: 1_000_000, rowsSoFar: 1_000_448, capped: true, elapsedMs: 2100 }) }, '')).toMatch(/^The first 1,000,000 rows in 2\.10 s; the rest is not kept/)
    expect(elapsedText(125_000)).toBe('2 min 5 s')
  })
})

describe('completion', () => {
  const schema = completionSchema({
    namespaces: [['shop'], ['shop', 'eu']],
    tables: [
      { namespace: ['shop'], name: 'orders', columns: [{ name: 'amount', type: 'int64' }] },
      { namespace: ['shop', 'eu'], name: 'stores', columns: [{ name: 'city', type: 'utf8' }] },
      { namespace: [], name: 'events', columns: [{ name: 'at', type: 'timestamp' }] },
    ],
    truncated: false,
  })
  const complete = async (marked: string) => {
    const { text, selection } = caret(marked)
    // The editor's own language extension (lang-sql with this schema), its completion sources as the editor asks them.
    const state = EditorState.create({ doc: text, extensions: [sqlLanguage(schema)] })
    ensureSyntaxTree(state, state.doc.length, 5000)
    const labels = new Set<string>()
    for (const source of state.languageDataAt<CompletionSource>('autocomplete', selection.from)) {
      const result = (await source(new CompletionContext(state, selection.from, true))) as CompletionResult | null
      for (const option of result?.options ?? []) if (option.detail === 'table' || option.detail === 'namespace' || option.type === 'property') labels.add(option.label)
    }
    return [...labels]
  }

  it('offers namespaces and root tables at the top, tables in a namespace, columns of a table', async () => {
    expect(await complete('SELECT * FROM |')).toEqual(expect.arrayContaining(['shop', 'events']))
    expect(await complete('SELECT * FROM shop.|')).toEqual(expect.arrayContaining(['orders', 'eu']))
    expect(await complete('SELECT * FROM shop.eu.|')).toEqual(['stores'])
    expect(await complete('SELECT shop.orders.|')).toEqual(['amount'])
  })
})
