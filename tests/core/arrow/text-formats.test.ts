import { Binary, Bool, Decimal, Field, FixedSizeList, Float32, Float64, Int32, Int64, List, Struct, TimeUnit, Utf8, makeData, makeVector, vectorFromArray, type DataType, type Vector } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { base64, cellValue, decimalText, fieldText, formatRows, isoTimestamp, jsonText, type TextColumn } from '../../../src/contract'
import { float32Vectors, timestampsMicro } from '../../../src/core/arrow'

// Lossless copy/export text (src/contract/values.ts, textFormats.ts): every value whole and exact.
const vector768 = Float32Array.from({ length: 768 }, (_, i) => i / 7)
const longText = 'x'.repeat(10_000) + 'END'
const columns: (TextColumn & { vector: Vector })[] = [
  { name: 'id', vector: vectorFromArray([9_007_199_254_740_993n, -9_223_372_036_854_775_808n, null], new Int64()) },
  { name: 'text', vector: vectorFromArray([longText, 'a,"b"\tc\nd|e', null], new Utf8()) },
  { name: 'score', vector: vectorFromArray([0.1, Number.NaN, null], new Float64()) },
  { name: 'ok', vector: vectorFromArray([true, false, null], new Bool()) },
  { name: 'bytes', vector: vectorFromArray([Uint8Array.from([0, 1, 2, 253, 254, 255]), new Uint8Array(), null], new Binary()) },
  {
    name: 'meta',
    vector: vectorFromArray([{ a: 1, b: 'x' }, { a: null, b: 'y"z' }, null], new Struct([new Field('a', new Int32(), true), new Field('b', new Utf8(), true)])),
  },
  { name: 'tags', vector: vectorFromArray([['p', 'q'], [], null], new List(new Field('item', new Utf8(), true))) },
  { name: 'at', vector: timestampsMicro(BigInt64Array.of(1_714_564_800_123_456n, -1n, 0n)) },
]
for (const c of columns) c.type = c.vector.type as DataType
const rows = [0, 1, 2].map((r) => columns.map((c) => cellValue(c.vector, r)))

describe('lossless values', () => {
  it('keeps int64 exact, timestamps to the microsecond, binary as base64, decimals scaled', () => {
    expect(fieldText(rows[0]![0], columns[0]!.type)).toBe('9007199254740993')
    expect(jsonText(rows[1]![0], columns[0]!.type)).toBe('-9223372036854775808')
    expect(fieldText(rows[0]![7])).toBe('2024-05-01T12:00:00.123456Z')
    expect(fieldText(rows[1]![7])).toBe('1969-12-31T23:59:59.999999Z')
    expect(isoTimestamp(1_700_000_000_123_456_789n, TimeUnit.NANOSECOND)).toBe('2023-11-14T22:13:20.123456789Z')
    expect(base64(Uint8Array.from([0, 1, 2, 253, 254, 255]))).toBe(Buffer.from([0, 1, 2, 253, 254, 255]).toString('base64'))
    for (let n = 0; n < 8; n++) expect(base64(Uint8Array.from({ length: n }, (_, i) => i * 37))).toBe(Buffer.from(Uint8Array.from({ length: n }, (_, i) => i * 37)).toString('base64'))
    expect(decimalText('123456', 2)).toBe('1234.56')
    expect(decimalText('-5', 3)).toBe('-0.005')
    const decimal = makeVector(makeData({ type: new Decimal(2, 20, 128), length: 1, data: new Uint32Array([12345, 0, 0, 0]) }))
    expect(fieldText(decimal.get(0), decimal.type)).toBe('123.45')
  })

  it('writes a 768-d vector with all 768 values, exactly as float32', () => {
    const v = float32Vectors(vector768, 768)
    const text = fieldText(v.get(0), v.type)!
    const parsed = JSON.parse(text) as number[]
    expect(parsed).toHaveLength(768)
    expect(Float32Array.from(parsed)).toEqual(vector768)
    expect(jsonText(v.get(0), v.type)).toBe(text)
    const list = vectorFromArray([[1.5, 2.5]], new FixedSizeList(2, new Field('item', new Float32(), true)))
    expect(fieldText(list.get(0), list.type)).toBe('[1.5,2.5]')
  })
})

describe('copy formats', () => {
  it('TSV: headers, tabs, quoted fields with tabs/quotes/newlines, nulls empty, nested as JSON', () => {
    const text = formatRows('tsv', columns, rows)
    const lines = text.split('\n')
    expect(lines[0]).toBe('id\ttext\tscore\tok\tbytes\tmeta\ttags\tat')
    expect(text).toContain(`9007199254740993\t${longText}\t0.1\ttrue\tAAEC/f7/\t"{""a"":1,""b"":""x""}"\t"[""p"",""q""]"\t2024-05-01T12:00:00.123456Z\n`)
    expect(text).toContain('-9223372036854775808\t"a,""b""\tc\nd|e"\tNaN\tfalse\t\t"{""a"":null,""b"":""y\\""z""}"\t[]\t1969-12-31T23:59:59.999999Z\n')
    expect(text.endsWith('\t\t\t\t\t\t\t1970-01-01T00:00:00.000000Z\n')).toBe(true)
  })

  it('CSV: RFC 4180 quoting, nulls empty', () => {
    const text = formatRows('csv', columns, rows)
    expect(text.split('\n')[0]).toBe('id,text,score,ok,bytes,meta,tags,at')
    expect(text).toContain('-9223372036854775808,"a,""b""\tc\nd|e",NaN,false,,"{""a"":null,""b"":""y\\""z""}",[],1969-12-31T23:59:59.999999Z\n')
    expect(text).toContain(',,,,,,,1970-01-01T00:00:00.000000Z\n')
  })

  it('JSON: an array of objects, null as null, int64 as exact digits, binary base64', () => {
    const text = formatRows('json', columns, rows)
    expect(text).toContain('{"id":9007199254740993,"text":"' + longText + '","score":0.1,"ok":true,"bytes":"AAEC/f7/","meta":{"a":1,"b":"x"},"tags":["p","q"],"at":"2024-05-01T12:00:00.123456Z"}')
    const parsed = JSON.parse(text) as Record<string, unknown>[]
    expect(parsed).toHaveLength(3)
    expect(parsed[1]).toMatchObject({ text: 'a,"b"\tc\nd|e', score: 'NaN', bytes: '', meta: { a: null, b: 'y"z' }, tags: [] })
    expect(parsed[2]).toEqual({ id: null, text: null, score: null, ok: null, bytes: null, meta: null, tags: null, at: '1970-01-01T00:00:00.000000Z' })
    expect(formatRows('json', columns, [])).toBe('[]\n')
  })

  it('Markdown: a table with escaped pipes and <br> for line breaks', () => {
    const text = formatRows('markdown', columns.slice(0, 2), rows.map((r) => r.slice(0, 2)))
    const lines = text.split('\n')
    expect(lines[0]).toBe('| id | text |')
    expect(lines[1]).toBe('| --- | --- |')
    expect(lines[3]).toBe('| -9223372036854775808 | a,"b"\tc<br>d\\|e |')
    expect(lines[4]).toBe('|  |  |')
  })
})
