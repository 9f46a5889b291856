import { join } from 'node:path'
import { Binary, Bool, DateDay, Decimal, Field, Int32, List, makeData, makeVector, Struct, tableFromIPC, TimeUnit, Timestamp, Uint64, Utf8, vectorFromArray, type DataType } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ConnectionInfo, type Result, type SqlQueryInfo } from '../../../src/contract'
import { batchOf, float32Vectors, tableOf } from '../../../src/core/arrow'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

const N = 5000
/** Decimal128 words (little-endian, two's complement) of an unscaled value. */
function decimalWords(values: bigint[]): Uint32Array {
  const words = new Uint32Array(values.length * 4)
  values.forEach((v, i) => {
    let x = BigInt.asUintN(128, v)
    for (let w = 0; w < 4; w++, x >>= 32n) words[i * 4 + w] = Number(x & 0xffffffffn)
  })
  return words
}
const fixed = <T extends DataType>(type: T, data: ArrayLike<unknown>) => makeVector(makeData({ type, length: N, data } as never))

const u64 = (i: number) => 18_446_744_073_709_551_615n - BigInt(i)
const i64 = (i: number) => -9_223_372_036_854_775_807n + BigInt(i)
const dec20 = (i: number) => (i % 2 ? -1n : 1n) * (12_345_678_901_234_567_890n + BigInt(i))
const dec10 = (i: number) => (i % 2 ? -1n : 1n) * (123_456_789n + BigInt(i))
const micros = (i: number) => 1_700_000_000_123_456n + BigInt(i) * 1_000_001n

/** Text of every length around DuckDB's 12-byte inline limit, non-ASCII and nulls among it. */
const text = (i: number) => (i % 9 === 0 ? null : i % 3 === 0 ? `é${'x'.repeat(i % 30)}` : `${i}`.repeat(1 + (i % 5)))

function typesTable() {
  return tableOf([
    batchOf({
      u64: fixed(new Uint64(), BigUint64Array.from({ length: N }, (_, i) => u64(i))),
      i64: makeVector(BigInt64Array.from({ length: N }, (_, i) => i64(i))),
      dec20: fixed(new Decimal(4, 20, 128), decimalWords(Array.from({ length: N }, (_, i) => dec20(i)))),
      dec10: fixed(new Decimal(2, 10, 128), decimalWords(Array.from({ length: N }, (_, i) => dec10(i)))),
      ts_utc: fixed(new Timestamp(TimeUnit.MICROSECOND, 'UTC'), BigInt64Array.from({ length: N }, (_, i) => micros(i))),
      ts_ms: fixed(new Timestamp(TimeUnit.MILLISECOND), BigInt64Array.from({ length: N }, (_, i) => micros(i) / 1000n)),
      day: fixed(new DateDay(), Int32Array.from({ length: N }, (_, i) => -1000 + i)),
      vec: float32Vectors(Float32Array.from({ length: N * 3 }, (_, k) => (k % 3 === 0 ? 1 : k % 3 === 1 ? Math.floor(k / 3) : 0)), 3),
      tags: vectorFromArray(Array.from({ length: N }, (_, i) => (i % 4 === 0 ? null : Array.from({ length: i % 3 }, (_, k) => i + k))), new List(new Field('item', new Int32(), true))),
      pair: vectorFromArray(Array.from({ length: N }, (_, i) => ({ a: i, b: `b${i}` })), new Struct([new Field('a', new Int32(), true), new Field('b', new Utf8(), true)])),
      bin: vectorFromArray(Array.from({ length: N }, (_, i) => (i % 7 === 0 ? null : Uint8Array.from([i & 255, 0xde, 0xad]))), new Binary()),
      txt: vectorFromArray(Array.from({ length: N }, (_, i) => text(i)), new Utf8()),
      flag: vectorFromArray(Array.from({ length: N }, (_, i) => (i % 5 === 0 ? null : i % 2 === 0)), new Bool()),
    }),
  ])
}

describe('Lance types map exactly into DuckDB and back', () => {
  let base: string
  let service: CatalogService
  let connection: ConnectionInfo
  async function page(sql: string) {
    const info = value<SqlQueryInfo>(await service.dispatch('sql/run', { connectionId: connection.id, sql }))
    return { info, table: tableFromIPC(value<Uint8Array>(await service.dispatch('sql/page', { queryId: info.queryId, offset: 0, limit: N }))) }
  }

  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-types-')
    const root = await buildCatalog(join(base, 'catalog'), { tables: [{ namespace: [], name: 'kinds', data: typesTable() }] })
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  }, 60_000)
  afterAll(async () => {
    await service?.closeAll()
    await removeDir(base)
  })

  it('every value of every type comes back as written (SELECT *)', async () => {
    const { info, table } = await page('SELECT * FROM kinds')
    expect(info.columns.map((c) => c.type)).toEqual([
      'UInt64',
      'Int64',
      expect.stringMatching(/Decimal.*20.*4|Decimal\[20e-4\]/),
      expect.stringMatching(/Decimal.*10.*2|Decimal\[10e-2\]/),
      expect.stringMatching(/Timestamp.*MICROSECOND.*UTC/),
      expect.stringMatching(/Timestamp.*MILLISECOND/),
      expect.stringMatching(/Date/),
      expect.stringMatching(/FixedSizeList.*Float32.*3/),
      expect.stringMatching(/List.*Int32/),
      expect.stringMatching(/Struct/),
      'Binary',
      'Utf8',
      'Bool',
    ])
    expect(info.columns.find((c) => c.name === 'vec')?.vectorDimension).toBe(3)
    expect(table.numRows).toBe(N)
    const col = (name: string) => table.getChild(name)!
    for (let i = 0; i < N; i += i < 100 ? 1 : 37) {
      expect(col('u64').get(i)).toBe(u64(i))
      expect(col('i64').get(i)).toBe(i64(i))
      expect(Array.from(col('dec20').get(i) as Uint32Array)).toEqual(Array.from(decimalWords([dec20(i)])))
      expect(Array.from(col('dec10').get(i) as Uint32Array)).toEqual(Array.from(decimalWords([dec10(i)])))
      expect(col('ts_utc').data[0]!.values[i]).toBe(micros(i))
      expect(col('ts_ms').data[0]!.values[i]).toBe(micros(i) / 1000n)
      expect(col('day').data[0]!.values[i]).toBe(-1000 + i)
      expect(Array.from(col('vec').get(i) as Iterable<number>)).toEqual([1, i, 0])
      expect(col('tags').get(i) === null ? null : Array.from(col('tags').get(i) as Iterable<number>)).toEqual(i % 4 === 0 ? null : Array.from({ length: i % 3 }, (_, k) => i + k))
      expect(col('pair').get(i)?.toJSON()).toEqual({ a: i, b: `b${i}` })
      expect(col('bin').get(i) === null ? null : Array.from(col('bin').get(i) as Uint8Array)).toEqual(i % 7 === 0 ? null : [i & 255, 0xde, 0xad])
      expect(col('txt').get(i)).toBe(text(i))
      expect(col('flag').get(i)).toBe(i % 5 === 0 ? null : i % 2 === 0)
    }
  })

  it('vector pages copied from DuckDB memory keep nulls and values: FLOAT[d] and DOUBLE[d], across chunks, from mid-chunk', async () => {
    // Every third row has no vector (a LEFT JOIN's null: DuckDB's CASE takes no arrays).
    const sql = `SELECT t.i, v.f, [t.i, 2 * t.i]::DOUBLE[2] AS d FROM range(9000) t(i)
      LEFT JOIN (SELECT j, [j, j + 0.5, -j]::FLOAT[3] AS f FROM range(9000) s(j) WHERE j % 3 <> 0) v ON v.j = t.i ORDER BY t.i`
    const info = value<SqlQueryInfo>(await service.dispatch('sql/run', { connectionId: connection.id, sql }))
    // 5,000 rows from row 1,000: three DuckDB chunks (2,048 rows each), the first and last in part.
    const table = tableFromIPC(value<Uint8Array>(await service.dispatch('sql/page', { queryId: info.queryId, offset: 1000, limit: 5000 })))
    expect(table.numRows).toBe(5000)
    for (let r = 0; r < 5000; r++) {
      const i = 1000 + r
      expect(Number(table.getChild('i')!.get(r))).toBe(i)
      const f = table.getChild('f')!.get(r) as Iterable<number> | null
      expect(f === null ? null : Array.from(f)).toEqual(i % 3 === 0 ? null : [i, i + 0.5, -i])
      expect(Array.from(table.getChild('d')!.get(r) as Iterable<number>)).toEqual([i, 2 * i])
    }
    expect(table.getChild('f')!.nullCount).toBe(Array.from({ length: 5000 }, (_, r) => (1000 + r) % 3 === 0).filter(Boolean).length)
  })

  it('vectors are FLOAT[d] arrays: array_cosine_similarity works; decimals keep their scale; zones read as UTC', async () => {
    const { table } = await page("SELECT array_cosine_similarity(vec, [1, 0, 0]::FLOAT[3]) AS sim, dec10 * 2 AS twice, ts_utc AT TIME ZONE 'UTC' AS local, pair.b AS b FROM kinds WHERE u64 = 18446744073709551615")
    expect(table.numRows).toBe(1)
    expect(table.getChild('sim')!.get(0)).toBeCloseTo(1)
    expect(table.getChild('b')!.get(0)).toBe('b0')
    const sums = (await page('SELECT sum(dec20) AS s, count(*) FILTER (WHERE flag) AS t FROM kinds')).table
    const expected = Array.from({ length: N }, (_, i) => dec20(i)).reduce((a, b) => a + b, 0n)
    const words = sums.getChild('s')!.get(0) as Uint32Array
    let got = 0n
    for (let w = 3; w >= 0; w--) got = (got << 32n) | BigInt(words[w]!)
    expect(BigInt.asIntN(128, got)).toBe(expected)
  })
})
