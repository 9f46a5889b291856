import * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkPredicate, tokenizePredicate, userColumnsOnly } from '../../../src/contract'
import { queryInputError } from '../../../src/core/query/errors'
import { makeTempDir, removeDir } from '../../helpers/catalog'

// Filters that cannot silently mean something else (src/contract/predicate.ts), checked against real Lance:
// every hint's fix must be a predicate Lance runs with the intended meaning.
const COLUMNS = ['Wildlife Size', 'score', 'price$', 'größe', 'select', 'Label', 'id']

describe('tokenizePredicate', () => {
  it('reads strings, double-quoted strings, backticks, escapes and operators', () => {
    const tokens = tokenizePredicate(`\`a\`\`b\` = 'it''s' AND "x""y" <> 'c\\' OR größe>=1.5e3 -- note`).filter((t) => t.kind !== 'space')
    expect(tokens.map((t) => [t.kind, t.value])).toEqual([
      ['backtick', 'a`b'],
      ['op', '='],
      ['string', "it's"],
      ['ident', 'AND'],
      ['dstring', 'x"y'],
      ['op', '<>'],
      ['string', 'c\\'],
      ['ident', 'OR'],
      ['ident', 'größe'],
      ['op', '>='],
      ['number', '1.5e3'],
      ['comment', '-- note'],
    ])
    expect(tokenizePredicate(`'open`)[0]).toMatchObject({ kind: 'string', unterminated: true })
    expect(tokenizePredicate('price$ > 1')[0]).toMatchObject({ kind: 'ident', value: 'price$' })
  })
})

describe('checkPredicate', () => {
  it('flags a double-quoted column name and offers the backticked column', () => {
    const [hint, ...rest] = checkPredicate(`"Wildlife Size" = 'Large'`, COLUMNS)
    expect(rest).toEqual([])
    expect(hint).toMatchObject({ kind: 'quoted-column', column: 'Wildlife Size', fixed: "`Wildlife Size` = 'Large'" })
    expect(hint!.message).toContain('Did you mean the column `Wildlife Size`?')
  })

  it('flags a single-quoted column name compared with a number, not a value compared with a column', () => {
    expect(checkPredicate(`'score' > 1`, COLUMNS).map((h) => h.fixed)).toEqual(['`score` > 1'])
    expect(checkPredicate(`Label = 'score'`, COLUMNS)).toEqual([])
    expect(checkPredicate(`'score' = Label`, COLUMNS)).toEqual([])
    expect(checkPredicate(`Label IN ('id', 'score')`, COLUMNS)).toEqual([])
    expect(checkPredicate(`Label LIKE 'score'`, COLUMNS)).toEqual([])
  })

  it('leaves typed literals, functions, struct fields and casts alone', () => {
    expect(checkPredicate(`id > 1 AND date '2024-01-01' < date '2025-01-01' AND lower(Label) = 'x' AND CAST(score AS float) > 1`, [...COLUMNS, 'date'])).toEqual([])
  })

  it('suggests the column for an identifier that matches one up to case or spaces', () => {
    expect(checkPredicate(`wildlife_size = 'Large'`, COLUMNS).map((h) => h.fixed)).toEqual(["`Wildlife Size` = 'Large'"])
    expect(checkPredicate(`WildlifeSize = 'Large'`, COLUMNS).map((h) => h.fixed)).toEqual(["`Wildlife Size` = 'Large'"])
    expect(checkPredicate(`Wildlife Size = 'Large' AND score > 1`, COLUMNS).map((h) => h.fixed)).toEqual(["`Wildlife Size` = 'Large' AND score > 1"])
    expect(checkPredicate('`wildlife size` > 1', COLUMNS).map((h) => h.column)).toEqual(['Wildlife Size'])
    // Known columns, whatever their case (Lance matches bare names without case), and names nothing resembles.
    expect(checkPredicate('SCORE > 1 AND label IS NULL AND nothing_like_it > 2', COLUMNS)).toEqual([])
  })

  it('handles names with $, non-ASCII letters and reserved words', () => {
    expect(checkPredicate(`"price$" > 1`, COLUMNS).map((h) => h.fixed)).toEqual(['`price$` > 1'])
    expect(checkPredicate(`'größe' > 1`, COLUMNS).map((h) => h.fixed)).toEqual(['`größe` > 1'])
    expect(checkPredicate(`"select" > 1`, COLUMNS).map((h) => h.fixed)).toEqual(['`select` > 1'])
    expect(checkPredicate('GRÖSSE > 1', COLUMNS)).toEqual([])
  })
})

describe('against Lance', () => {
  let dir: string
  let table: lancedb.Table
  beforeAll(async () => {
    dir = await makeTempDir('lcb-predicate-')
    const db = await lancedb.connect(dir)
    table = await db.createTable('t', [
      { 'Wildlife Size': 'Large', score: 2, price$: 3, größe: 4, select: 5, Label: "it's", id: 1 },
      { 'Wildlife Size': 'Small', score: 0, price$: 1, größe: 1, select: 1, Label: 'score', id: 2 },
      { 'Wildlife Size': 'Large', score: 5, price$: 9, größe: 7, select: 8, Label: 'x\\', id: 3 },
    ])
  })
  afterAll(async () => {
    table?.close()
    await removeDir(dir)
  })

  it('the quoted predicate means something else in Lance; the fix means what was meant', async () => {
    const cases: [string, number, number][] = [
      [`"Wildlife Size" = 'Large'`, 0, 2],
      [`"price$" > 2`, 3, 2],
      [`"größe" > 2`, 3, 2],
      [`"select" > 2`, 3, 2],
    ]
    for (const [predicate, asWritten, meant] of cases) {
      expect(await table.countRows(predicate), predicate).toBe(asWritten)
      const [hint] = checkPredicate(predicate, COLUMNS)
      expect(await table.countRows(hint!.fixed), hint!.fixed).toBe(meant)
    }
    // The tokenizer's escapes are Lance's: a doubled quote is one quote, a backslash is a backslash.
    expect(await table.countRows(`Label = 'it''s'`)).toBe(1)
    expect(await table.countRows(`Label = 'x\\'`)).toBe(1)
    expect(checkPredicate(`Label = 'x\\' AND 'score' > 1`, COLUMNS).map((h) => h.fixed)).toEqual([`Label = 'x\\' AND \`score\` > 1`])
  })

  it('an unknown identifier: the fix runs, and Lance’s message names only the user’s columns', async () => {
    const error = await table.countRows('nope > 1').then(
      () => null,
      (e: unknown) => e,
    )
    const app = queryInputError(error)
    expect(app?.code).toBe('invalid_input')
    expect(app!.message).toContain('No field named nope')
    expect(app!.message).toContain('"Wildlife Size"')
    for (const internal of ['_rowid', '_rowaddr', '_row_last_updated_at_version', '_row_created_at_version', '_rowoffset']) expect(app!.message).not.toContain(internal)

    const suggested = queryInputError(await table.countRows('wildlife_size = 1').catch((e: unknown) => e))
    expect(suggested!.message).toContain('Did you mean the column `Wildlife Size`?')
    // A backticked name matches exactly; Lance's advice to use double quotes (wrong in Lance) is left out.
    const cased = queryInputError(await table.countRows("`wildlife size` = 'Large'").catch((e: unknown) => e))
    expect(cased!.message).toContain('Did you mean the column `Wildlife Size`?')
    expect(cased!.message).not.toContain('double quotes')
    expect(checkPredicate("`wildlife size` = 'Large'", COLUMNS).map((h) => h.fixed)).toEqual(["`Wildlife Size` = 'Large'"])
    const [hint] = checkPredicate(`wildlife_size = 'Large'`, COLUMNS)
    expect(await table.countRows(hint!.fixed)).toBe(2)
  })

  it('userColumnsOnly keeps quoted and qualified names', () => {
    expect(userColumnsOnly('No field named x. Valid fields are "a, b", t.c, _rowid, t._rowaddr, d.')).toBe('No field named x. Valid fields are "a, b", t.c, d.')
  })
})
