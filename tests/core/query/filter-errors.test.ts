import { DuckDBInstance } from '@duckdb/node-api'
import * as lancedb from '@lancedb/lancedb'
import { DateDay, Field, makeData, makeVector, Schema, TimestampMicrosecond, TimestampMillisecond, Utf8, vectorFromArray } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import { batchOf, tableOf, timestampsMicro } from '../../../src/core/arrow'
import { DirNamespaceClient } from '../../../src/core/namespace/dir'
import { typeDateLiterals, typedLiteral } from '../../../src/core/query/typedLiterals'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

/**
 * Errors that point (issue #40 item 9): a filter Lance cannot parse becomes a sentence saying what was
 * expected with the span of the user's text it is about; a quoted date compared with a date or timestamp
 * column is typed before Lance gets it (as DuckDB reads it). Against a real Lance table through the dir client.
 */
const INSTANTS = ['2025-05-01T00:00:00Z', '2025-07-01T00:00:00Z', '2025-06-01T00:00:00Z', '2025-06-01T00:00:01Z', '2025-05-31T23:00:00Z', '2025-06-15T12:30:00Z']
const ms = INSTANTS.map((s) => Date.parse(s))

function temporalTable() {
  const micro = () => BigInt64Array.from(ms.map((m) => BigInt(m) * 1000n))
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from(ms.map((_, i) => BigInt(i)))), nullable: false },
      name: { vector: vectorFromArray(['a', 'b', '2025-06-01', 'x', "taken_at > '2025-06-01'", 'z'], new Utf8()), nullable: false },
      taken_at: { vector: timestampsMicro(micro(), 'UTC'), nullable: false },
      local_at: { vector: timestampsMicro(micro(), null), nullable: false },
      zurich_at: { vector: timestampsMicro(micro(), 'Europe/Zurich'), nullable: false },
      day: { vector: makeVector(makeData({ type: new DateDay(), length: ms.length, nullCount: 0, data: Int32Array.from(ms.map((m) => Math.floor(m / 86_400_000))) })), nullable: false },
    }),
  ])
}

const SCHEMA = new Schema([
  new Field('name', new Utf8()),
  new Field('taken_at', new TimestampMicrosecond('UTC')),
  new Field('local_at', new TimestampMillisecond()),
  new Field('day', new DateDay()),
  new Field('Odd Name', new TimestampMicrosecond('UTC')),
])

describe('typeDateLiterals: which strings become typed literals', () => {
  const typed = (filter: string) => typeDateLiterals(filter, SCHEMA).text
  it('types a date or date-time compared with a date or timestamp column, either side, BETWEEN and IN', () => {
    const utc = (time: string) => `arrow_cast('${time}', 'Timestamp(Microsecond, Some("UTC"))')`
    expect(typed("taken_at > '2025-06-01'")).toBe(`taken_at > ${utc('2025-06-01 00:00:00+00:00')}`)
    expect(typed("'2025-06-01T10:30' <= TAKEN_AT")).toBe(`${utc('2025-06-01 10:30:00+00:00')} <= TAKEN_AT`)
    expect(typed("local_at = '2025-06-01 00:00:01.5'")).toBe("local_at = TIMESTAMP '2025-06-01 00:00:01.5'")
    expect(typed("local_at < '2025-06-01T00:00:00+0530'")).toBe("local_at < TIMESTAMP '2025-06-01 00:00:00+05:30'")
    expect(typed("day >= '2025-06-01'")).toBe("day >= DATE '2025-06-01'")
    expect(typed("`Odd Name` != \"2025-06-01\"")).toBe(`\`Odd Name\` != ${utc('2025-06-01 00:00:00+00:00')}`)
    expect(typed("day NOT BETWEEN '2025-06-01' AND '2025-06-30' OR id = 1")).toBe("day NOT BETWEEN DATE '2025-06-01' AND DATE '2025-06-30' OR id = 1")
    expect(typed("taken_at IN ('2025-06-01', '2025-07-01T08:00+0200')")).toBe(`taken_at IN (${utc('2025-06-01 00:00:00+00:00')}, ${utc('2025-07-01 08:00:00+02:00')})`)
    expect(typed("day in ('2025-06-01', '2025-07-01')")).toBe("day in (DATE '2025-06-01', DATE '2025-07-01')")
    expect(typed("(taken_at > '2025-06-01') AND name = 'a'")).toBe(`(taken_at > ${utc('2025-06-01 00:00:00+00:00')}) AND name = 'a'`)
  })

  it('leaves everything else as written', () => {
    const same = [
      "name > '2025-06-01'", // a string column
      "name = 'taken_at > ''2025-06-01'''", // a string inside another string
      "taken_at > TIMESTAMP '2025-06-01 00:00:00'", // typed already
      "taken_at > DATE '2025-06-01'",
      "taken_at > 'yesterday'", // no date
      "taken_at > '2025-02-30'", // no such day
      "day > '2025-06-01 10:00'", // a time of day for a date column: not guessed at
      "taken_at > '2025-06-01' + INTERVAL '1' DAY", // part of a longer expression
      "date_trunc('day', taken_at) = '2025-06-01'", // an expression on the column
      "meta.taken_at > '2025-06-01'", // a struct field of another column
      "unknown_col > '2025-06-01'",
      "taken_at > '2025-06-01", // unterminated: Lance reports it
      "name LIKE '2025-06-01%'",
    ]
    for (const filter of same) expect(typeDateLiterals(filter, SCHEMA), filter).toEqual({ text: filter, edits: [] })
  })

  it('reads only real dates and times', () => {
    expect(typedLiteral('2024-02-29', 'date')).toBe("DATE '2024-02-29'")
    expect(typedLiteral('2025-02-29', 'date')).toBeUndefined()
    expect(typedLiteral('2025-06-01 24:00', 'timestamp')).toBeUndefined()
    expect(typedLiteral('2025-06-01 23:59:59.123456', 'zoned', 'Nanosecond')).toBe(`arrow_cast('2025-06-01 23:59:59.123456+00:00', 'Timestamp(Nanosecond, Some("UTC"))')`)
    expect(typedLiteral('2025-06-01 23:59:59.123456', 'timestamp')).toBe("TIMESTAMP '2025-06-01 23:59:59.123456'")
    expect(typedLiteral('06/01/2025', 'timestamp')).toBeUndefined()
  })
})

let dir: string
let client: DirNamespaceClient
let root: string
const id = { namespace: [], name: 'photos' }

beforeAll(async () => {
  dir = await makeTempDir('lcb-filter-errors-')
  root = await buildCatalog(dir, { tables: [{ namespace: [], name: 'photos', data: temporalTable() }] })
  client = await DirNamespaceClient.open(root)
})
afterAll(async () => {
  await client?.close()
  await removeDir(dir)
})

async function refusal(filter: string): Promise<AppError> {
  const error = await client.countRows(id, { view: { filter } }).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error, filter).toBeInstanceOf(AppError)
  return error as AppError
}

describe('a quoted date compared with a timestamp or date column', () => {
  it('counts as the typed literal does in lancedb (and as DuckDB reads the string)', async () => {
    const db = await lancedb.connectNamespace('dir', { root })
    const table = await db.openTable('photos')
    const cases: [string, string][] = [
      ["taken_at > '2025-06-01'", "taken_at > TIMESTAMP '2025-06-01 00:00:00'"],
      ["local_at >= '2025-06-01 00:00:01'", "local_at >= TIMESTAMP '2025-06-01 00:00:01'"],
      ["day = '2025-06-01'", "day = DATE '2025-06-01'"],
      ["taken_at BETWEEN '2025-06-01' AND '2025-06-30'", "taken_at BETWEEN TIMESTAMP '2025-06-01 00:00:00' AND TIMESTAMP '2025-06-30 00:00:00'"],
    ]
    for (const [asked, typed] of cases) {
      const expected = await table.countRows(typed)
      expect(expected, typed).toBeGreaterThan(0)
      expect(await client.countRows(id, { view: { filter: asked } }), asked).toBe(expected)
    }
    expect(await client.countRows(id, { view: { filter: "taken_at > '2025-06-01'" } })).toBe(3)
    // A zoned column in another zone: a time without an offset is UTC there too (the grid shows zoned times in UTC).
    expect(await client.countRows(id, { view: { filter: "zurich_at > '2025-06-01'" } })).toBe(3)
    expect(await client.countRows(id, { view: { filter: "zurich_at > '2025-06-01T00:00:00+02:00'" } })).toBe(5)
    expect(await client.countRows(id, { view: { filter: "zurich_at = '2025-06-01 00:00:01Z'" } })).toBe(1)
    // DuckDB reads the same strings the same way (its session in UTC, as the grid shows a zoned time).
    const instance = await DuckDBInstance.create(':memory:')
    const duck = await instance.connect()
    try {
      await duck.run("SET TimeZone = 'UTC'")
      const values = INSTANTS.map((s) => `(TIMESTAMPTZ '${s.replace('T', ' ').replace('Z', '+00')}')`).join(', ')
      await duck.run(`CREATE TABLE photos AS SELECT t AS taken_at, t::TIMESTAMP AS local_at, t::DATE AS day FROM (VALUES ${values}) v(t)`)
      for (const [asked] of cases) {
        const rows = (await duck.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM photos WHERE ${asked}`)).getRowObjects()
        expect(await client.countRows(id, { view: { filter: asked } }), `DuckDB: ${asked}`).toBe(rows[0]!.n)
      }
    } finally {
      duck.closeSync()
      instance.closeSync()
    }
    // A string column keeps its string comparison: 'a', 'b', 'x', 'z' and the quoted one sort after '2025-06-01'.
    expect(await client.countRows(id, { view: { filter: "name > '2025-06-01'" } })).toBe(await table.countRows("name > '2025-06-01'"))
    expect(await client.countRows(id, { view: { filter: "name = 'taken_at > ''2025-06-01'''" } })).toBe(1)
    table.close()
  })

  it('a string that is no date is refused with the fix in words, pointing at the string', async () => {
    const filter = "id > 0 AND taken_at > '2025-06-01 10'"
    const error = await refusal(filter)
    expect(error.code).toBe('invalid_input')
    expect(error.message).toBe("`'2025-06-01 10'` is text that is no date or time, compared with a timestamp column: write a date as 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS' (in UTC, or with an offset: Z, +05:30).")
    expect(filter.slice(error.span!.start, error.span!.end)).toBe("'2025-06-01 10'")
  })
})

describe('a filter that does not parse: what was expected, where', () => {
  const cases: { filter: string; token: string; words: RegExp }[] = [
    { filter: 'score >>> 1', token: '>>', words: /`>>` is not an operator of filters: expected a comparison/ },
    { filter: 'id = = 3', token: '=', words: /Expected a value or a column where `=` stands/ },
    { filter: 'id > ', token: '>', words: /ends too soon: a value or a column is expected after `>`/ },
    { filter: 'id in (1, 2', token: '2', words: /ends too soon: a closing \) is expected after `2`/ },
    { filter: "name = 'abc", token: "'abc", words: /no closing quote/ },
  ]
  for (const { filter, token, words } of cases) {
    it(`${filter} → ${token}`, async () => {
      const error = await refusal(filter)
      expect(error.code).toBe('invalid_input')
      expect(error.message).toMatch(words)
      expect(error.message).not.toMatch(/SELECT 1 FROM|ShiftRight|sql parser error/)
      expect(error.span).toBeDefined()
      expect(filter.slice(error.span!.start, error.span!.end)).toBe(token)
      // Lance's own words stay in the detail.
      expect(error.detail).toMatch(/SELECT 1 FROM t WHERE/)
    })
  }

  it('points at the second of two equal tokens when the first is fine', async () => {
    const filter = 'id = 1 AND id = = 3'
    const error = await refusal(filter)
    expect(error.span).toEqual({ start: 16, end: 17 })
  })

  it('a position after a typed date still points into the user’s text', async () => {
    const filter = "taken_at > '2025-06-01' AND name = 'open"
    const error = await refusal(filter)
    expect(filter.slice(error.span!.start, error.span!.end)).toBe("'open")
    expect(error.toData().span).toEqual(error.span)
  })

  it('an unknown column keeps Lance’s sentence (no span)', async () => {
    const error = await refusal('nope > 1')
    expect(error.message).toMatch(/No field named nope/)
    expect(error.span).toBeUndefined()
  })
})

