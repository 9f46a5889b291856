import { writeFile } from 'node:fs/promises'
import { Field, Int64, Schema, type RecordBatch } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import { openSource, writeSource } from '../../../src/core/import'
import { writeArrow } from '../../fixtures/import/arrow'
import { plain, readBack, tableNames, workspace, type Workspace } from './helpers'

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  await ws.cleanup()
})

async function readAll(path: string, inferRows?: number): Promise<{ schema: string[]; rows: unknown[] }> {
  const source = await openSource(path, { inferRows })
  const rows: unknown[] = []
  for await (const batch of source.batches() as AsyncIterable<RecordBatch>) for (const row of batch) rows.push(plain(row!.toJSON()))
  return { schema: source.schema.fields.map((f) => `${f.name}: ${String(f.type)}`), rows }
}

describe('text readers', () => {
  it('CSV: BOM, tab delimiter, empty and duplicate header names, quoted newlines', async () => {
    await writeFile(ws.file('t.tsv'), '\uFEFFname\t\tname\tn\n"a\nb"\tx\t1\t2\n\t\t\t\n')
    const { schema, rows } = await readAll(ws.file('t.tsv'))
    expect(schema).toEqual(['name: Utf8', 'column_2: Utf8', 'name_2: Int64', 'n: Int64'])
    expect(rows).toEqual([
      { name: 'a\nb', column_2: 'x', name_2: '1', n: '2' },
      { name: null, column_2: null, name_2: null, n: null },
    ])
  })

  it('CSV: booleans, floats with exponents, ints past 2^53 stay exact', async () => {
    await writeFile(ws.file('types.csv'), 'b,f,i\ntrue,1e3,9007199254740993\nFALSE,-.5,-9223372036854775808\n')
    const { schema, rows } = await readAll(ws.file('types.csv'))
    expect(schema).toEqual(['b: Bool', 'f: Float64', 'i: Int64'])
    expect(rows).toEqual([
      { b: true, f: 1000, i: '9007199254740993' },
      { b: false, f: -0.5, i: '-9223372036854775808' },
    ])
  })

  it('JSON lines: missing keys are null, nested objects become structs, a new key later is an error with its line', async () => {
    await writeFile(ws.file('n.jsonl'), ['{"a": 1, "s": {"x": "p"}}', '', '{"a": 2.5, "t": [1, 2]}', '{"a": null}'].join('\n'))
    const { schema, rows } = await readAll(ws.file('n.jsonl'))
    expect(schema).toEqual(['a: Float64', 's: Struct<{x:Utf8}>', 't: List<Int64>'])
    expect(rows).toEqual([
      { a: 1, s: { x: 'p' }, t: null },
      { a: 2.5, s: null, t: ['1', '2'] },
      { a: null, s: null, t: null },
    ])
    await writeFile(ws.file('late.jsonl'), ['{"a": 1}', '{"a": 2}', '{"a": 3, "b": true}'].join('\n'))
    await expect(readAll(ws.file('late.jsonl'), 2)).rejects.toThrowError(/late\.jsonl line 3 has the field "b"/)
  })

  it('JSON lines: a line that is not an object is refused with its line', async () => {
    await writeFile(ws.file('arr.jsonl'), '{"a": 1}\n[1, 2]\n')
    await expect(readAll(ws.file('arr.jsonl'))).rejects.toThrowError(/arr\.jsonl line 2 is not a JSON object/)
  })
})

describe('edge cases of the writer', () => {
  it('an Arrow file with a schema and no batches makes an empty table', async () => {
    const schema = new Schema([new Field('id', new Int64(), false)])
    await writeArrow(ws.file('none.arrow'), 'file', schema, [])
    const result = await writeSource(ws.client, { namespace: [], name: 'none' }, await openSource(ws.file('none.arrow')), { mode: 'create' })
    expect(result.rowCount).toBe(0)
    expect((await ws.client.describeTable({ namespace: [], name: 'none' })).fields.map((f) => f.name)).toEqual(['id'])
  })

  it('a vector row of another length fails with its row number and leaves no table', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: i, v: i === 42 ? [1, 2] : [0.5, 1.5, 2.5] }))
    await writeFile(ws.file('vec.jsonl'), lines.join('\n'))
    const source = await openSource(ws.file('vec.jsonl'), { inferRows: 10, batchRows: 10 })
    const error = await writeSource(ws.client, { namespace: [], name: 'vec' }, source, { mode: 'create', limits: { maxRows: 10, maxBytes: 1 << 26 } }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).message).toMatch(/Row 43: column "v" has 2 values, but it is imported as a 3-value vector/)
    expect(await tableNames(ws.client)).not.toContain('vec')
  })

  it('declining the vector keeps the list as it is', async () => {
    const lines = Array.from({ length: 5 }, (_, i) => JSON.stringify({ id: i, v: [i + 0.5, 1.5] }))
    await writeFile(ws.file('keep.jsonl'), lines.join('\n'))
    await writeSource(ws.client, { namespace: [], name: 'keep' }, await openSource(ws.file('keep.jsonl')), { mode: 'create', vectorColumns: [] })
    const back = await readBack(ws.client, { namespace: [], name: 'keep' })
    expect(String(back.table.schema.fields[1]!.type)).toBe('List<Float64>')
    expect(back.rows[0]).toEqual({ id: '0', v: [0.5, 1.5] })
  })
})
