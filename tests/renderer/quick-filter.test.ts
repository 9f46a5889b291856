import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import * as arrow from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { andFilter, quickFilterPredicate, quoteIdentifier, sqlLiteral } from '../../src/renderer/lib/sql'

/** Quick filters are SQL text: run each through real Lance and check it selects exactly the intended rows. */
describe('quick filter SQL', () => {
  let dir: string
  let table: lancedb.Table
  const big = 9_007_199_254_740_993n // 2^53 + 1: a double would round it
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lcb-sql-'))
    const db = await lancedb.connect(dir)
    table = await db.createTable(
      't',
      arrow.tableFromArrays({
        id: BigInt64Array.from([big, big - 1n, big + 1n, 1n]),
        'odd name': ["O'Brien", 'plain', "O'Brien", 'x'],
        select: [1.5, 2.5, 1.5, -0],
        flag: [true, false, true, false],
        Mixed: ['A', 'a', 'b', 'c'],
      }),
    )
  })
  afterAll(async () => rm(dir, { recursive: true, force: true }))

  it('quotes identifiers only when needed, and literals exactly', () => {
    expect(quoteIdentifier('score')).toBe('score')
    expect(quoteIdentifier('odd name')).toBe('`odd name`')
    expect(quoteIdentifier('a`b')).toBe('`a``b`')
    expect(sqlLiteral(big)).toBe('9007199254740993')
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'")
    expect(sqlLiteral(new Uint8Array(2))).toBeNull()
    expect(andFilter('a > 1 OR b', 'c IS NULL')).toBe('(a > 1 OR b) AND c IS NULL')
  })

  it('selects exactly the intended rows in Lance', async () => {
    expect(await table.countRows(quickFilterPredicate('equals', 'id', big)!)).toBe(1)
    expect(await table.countRows(quickFilterPredicate('excludes', 'id', big)!)).toBe(3)
    expect(await table.countRows(quickFilterPredicate('equals', 'odd name', "O'Brien")!)).toBe(2)
    expect(await table.countRows(quickFilterPredicate('equals', 'flag', true)!)).toBe(2)
    expect(await table.countRows(quickFilterPredicate('equals', 'select', 1.5)!)).toBe(2)
    expect(await table.countRows(quickFilterPredicate('equals', 'Mixed', 'A')!)).toBe(1)
    expect(await table.countRows(quickFilterPredicate('is-null', 'odd name', 'x')!)).toBe(0)
    expect(await table.countRows(andFilter(quickFilterPredicate('equals', 'odd name', "O'Brien")!, quickFilterPredicate('excludes', 'id', big + 1n)!))).toBe(1)
  })
})
