import {
  DateDay,
  DateMillisecond,
  DurationMicrosecond,
  DurationMillisecond,
  DurationSecond,
  Field,
  Int32,
  Struct,
  TimeMicrosecond,
  TimeMillisecond,
  TimeNanosecond,
  TimeSecond,
  TimeUnit,
  Timestamp,
  makeData,
  Type,
  makeVector,
  tableFromIPC,
  vectorFromArray,
  type DataType,
  type Table,
} from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ARROW_TYPE_ID, cellValue, durationText, fieldText, formatRows, isoTimestamp, jsonText, temporalText, timeOfDay } from '../../../src/contract'
import { batchOf, tableOf } from '../../../src/core/arrow'
import { DirNamespaceClient } from '../../../src/core/namespace/dir'
import { formatCell } from '../../../src/renderer/lib/formatCell'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

// Dates, times, timestamps and durations: one rule (src/contract/values.ts) for the grid (formatCell), the
// inspector, copy and export — checked on values read back from a real Lance table.
function column(type: DataType, data: Int32Array | BigInt64Array) {
  return makeVector(makeData({ type, length: data.length, nullCount: 0, data } as never))
}

describe('the contract without apache-arrow at run time', () => {
  it('knows each type by the same typeId apache-arrow gives it', () => {
    for (const [name, id] of Object.entries(ARROW_TYPE_ID)) expect(id, name).toBe(Type[name as keyof typeof Type])
    expect([TimeUnit.SECOND, TimeUnit.MILLISECOND, TimeUnit.MICROSECOND, TimeUnit.NANOSECOND]).toEqual([0, 1, 2, 3])
  })
})

describe('the rule', () => {
  it('writes times with fraction digits only when there is a fraction, durations with units', () => {
    expect(timeOfDay(45_000n, TimeUnit.SECOND)).toBe('12:30:00')
    expect(timeOfDay(45_000_250n, TimeUnit.MILLISECOND)).toBe('12:30:00.250')
    expect(timeOfDay(45_000_000_000n, TimeUnit.MICROSECOND)).toBe('12:30:00')
    expect(timeOfDay(1n, TimeUnit.NANOSECOND)).toBe('00:00:00.000000001')
    expect(durationText(0n, TimeUnit.SECOND)).toBe('0s')
    expect(durationText(93_784n, TimeUnit.SECOND)).toBe('1d 2h 3m 4s')
    expect(durationText(-90n, TimeUnit.SECOND)).toBe('-1m 30s')
    expect(durationText(5_400_500n, TimeUnit.MILLISECOND)).toBe('1h 30m 0.5s')
    expect(durationText(1n, TimeUnit.MICROSECOND)).toBe('0.000001s')
    expect(durationText(7_200_000_000n, TimeUnit.MICROSECOND)).toBe('2h')
    expect(isoTimestamp(1_709_209_800_000_000n, TimeUnit.MICROSECOND, false)).toBe('2024-02-29T12:30:00.000000')
    expect(isoTimestamp(-1n, TimeUnit.SECOND)).toBe('1969-12-31T23:59:59Z')
  })
})

describe('values read back from Lance', () => {
  let dir: string
  const leapDay = 19_782
  const types: Record<string, [DataType, Int32Array | BigInt64Array, string[]]> = {
    day: [new DateDay(), Int32Array.from([leapDay, -1]), ['2024-02-29', '1969-12-31']],
    day64: [new DateMillisecond(), BigInt64Array.from([BigInt(leapDay) * 86_400_000n, 0n]), ['2024-02-29', '1970-01-01']],
    t_s: [new TimeSecond(), Int32Array.from([45_000, 86_399]), ['12:30:00', '23:59:59']],
    t_ms: [new TimeMillisecond(), Int32Array.from([45_000_250, 1]), ['12:30:00.250', '00:00:00.001']],
    t_us: [new TimeMicrosecond(), BigInt64Array.from([45_000_000_001n, 0n]), ['12:30:00.000001', '00:00:00']],
    t_ns: [new TimeNanosecond(), BigInt64Array.from([45_000_000_000_000n, 999n]), ['12:30:00', '00:00:00.000000999']],
    naive: [new Timestamp(TimeUnit.MICROSECOND), BigInt64Array.from([1_709_209_800_000_000n, 1n]), ['2024-02-29T12:30:00.000000', '1970-01-01T00:00:00.000001']],
    utc: [new Timestamp(TimeUnit.NANOSECOND, 'UTC'), BigInt64Array.from([1_709_209_800_123_456_789n, 0n]), ['2024-02-29T12:30:00.123456789Z', '1970-01-01T00:00:00.000000000Z']],
    zoned: [new Timestamp(TimeUnit.SECOND, 'Asia/Kolkata'), BigInt64Array.from([1_709_209_800n, -1n]), ['2024-02-29T12:30:00Z', '1969-12-31T23:59:59Z']],
    took_ms: [new DurationMillisecond(), BigInt64Array.from([5_400_500n, -1n]), ['1h 30m 0.5s', '-0.001s']],
    took_s: [new DurationSecond(), BigInt64Array.from([86_400n, 59n]), ['1d', '59s']],
    took_us: [new DurationMicrosecond(), BigInt64Array.from([1_500_000n, 0n]), ['1.5s', '0s']],
  }
  let page: Table
  beforeAll(async () => {
    dir = await makeTempDir('lcb-temporal-')
    const columns = Object.fromEntries(Object.entries(types).map(([name, [type, data]]) => [name, column(type, data)]))
    const root = await buildCatalog(`${dir}/catalog`, { tables: [{ namespace: [], name: 't', data: tableOf([batchOf({ id: vectorFromArray([1, 2], new Int32()), ...columns })]) }] })
    const client = await DirNamespaceClient.open(root)
    page = tableFromIPC(await client.readPage({ namespace: [], name: 't' }, { offset: 0, limit: 10 } as never))
    await client.close()
  })
  afterAll(async () => {
    await removeDir(dir)
  })

  it('the grid, a copy (TSV, CSV) and JSON show the same text', () => {
    for (const [name, [, , expected]] of Object.entries(types)) {
      const vector = page.getChild(name)!
      for (const [row, text] of expected.entries()) {
        const value = cellValue(vector, row)
        expect(formatCell(value, vector.type).text, `${name}[${row}] grid`).toBe(text)
        expect(fieldText(value, vector.type), `${name}[${row}] copy`).toBe(text)
        expect(jsonText(value, vector.type), `${name}[${row}] json`).toBe(JSON.stringify(text))
        expect(temporalText(value, vector.type)).toBe(text)
      }
    }
    const names = Object.keys(types)
    const csv = formatRows('csv', names.map((name) => ({ name, type: page.getChild(name)!.type })), [0, 1].map((r) => names.map((name) => cellValue(page.getChild(name)!, r))))
    expect(csv.split('\n')[1]).toBe(Object.values(types).map(([, , e]) => e[0]).join(','))
  })

  it('nested timestamps and dates (a struct) follow the same rule', () => {
    const struct = vectorFromArray(
      [{ day: new Date(Date.UTC(2024, 1, 29)), at: 1_709_209_800_000 }],
      new Struct([new Field('day', new DateDay(), true), new Field('at', new Timestamp(TimeUnit.MILLISECOND), true)]),
    )
    expect(jsonText(struct.get(0), struct.type)).toBe('{"day":"2024-02-29","at":"2024-02-29T12:30:00.000"}')
    expect(formatCell(struct.get(0), struct.type).text).toBe('{day: 2024-02-29, at: 2024-02-29T12:30:00.000}')
  })
})
