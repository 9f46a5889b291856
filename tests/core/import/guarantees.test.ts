import { writeFile, readFile } from 'node:fs/promises'
import { DenseUnion, Field, Int32, Int64, Schema, Utf8, tableToIPC, makeData, RecordBatch, Struct, Table } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import { openSource, writeSource } from '../../../src/core/import'
import type { WriteOptions } from '../../../src/core/import'
import { batchOf, writeArrow } from '../../fixtures/import/arrow'
import { readBack, stagedLeftovers, tableNames, workspace, type Workspace } from './helpers'

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  await ws.cleanup()
})

const limits = { maxRows: 1_000, maxBytes: 64 * 1024 * 1024 }

function csv(rows: number, bad?: { line: number; text: string }): string {
  const lines = ['id,name,score']
  for (let i = 0; i < rows; i++) lines.push(`${i},n${i},${i / 2}`)
  // line numbers are 1-based and the header is line 1
  if (bad) lines[bad.line - 1] = bad.text
  return lines.join('\n') + '\n'
}

/** Text formats infer column types from the first 500 rows here (10,000 by default), so later bad cells fail. */
async function run(path: string, name: string, options: Partial<WriteOptions> = {}) {
  const source = await openSource(path, { inferRows: 500 })
  return writeSource(ws.client, { namespace: [], name }, source, { mode: 'create', limits, ...options })
}

async function expectError(promise: Promise<unknown>, code: string, message: RegExp): Promise<AppError> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe(code)
    expect((error as AppError).message).toMatch(message)
    return error as AppError
  }
  throw new Error('expected an error')
}

async function leftovers(): Promise<string[]> {
  return stagedLeftovers(ws.client)
}

describe('create', () => {
  it('refuses an existing table before writing anything', async () => {
    await writeFile(ws.file('c1.csv'), csv(10))
    await run(ws.file('c1.csv'), 'exists')
    const before = await ws.client.describeTable({ namespace: [], name: 'exists' })
    await writeFile(ws.file('c2.csv'), csv(3000))
    await expectError(run(ws.file('c2.csv'), 'exists'), 'already_exists', /already exists/)
    const after = await ws.client.describeTable({ namespace: [], name: 'exists' })
    expect(after.version).toBe(before.version)
    expect(after.rowCount).toBe(10)
  })

  it('cancelled mid-way leaves no table behind', async () => {
    await writeFile(ws.file('big.csv'), csv(6000))
    const controller = new AbortController()
    let rowsAtCancel = 0
    const promise = run(ws.file('big.csv'), 'cancelled', {
      signal: controller.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (p.rows > 0 && !controller.signal.aborted) {
          rowsAtCancel = p.rows
          controller.abort()
        }
      },
    })
    await expectError(promise, 'cancelled', /cancelled/)
    expect(rowsAtCancel).toBeGreaterThan(0) // it had written rows when cancelled
    expect(await tableNames(ws.client)).not.toContain('cancelled')
  })

  it('a CSV row with the wrong number of fields fails with its line number, and no table is left', async () => {
    await writeFile(ws.file('fields.csv'), csv(2500, { line: 2345, text: '2343,oops' }))
    await expectError(run(ws.file('fields.csv'), 'fields'), 'invalid_input', /fields\.csv line 2345: 2 fields where the header has 3/)
    expect(await tableNames(ws.client)).not.toContain('fields')
  })

  it('a cell that does not fit the inferred type fails with its line number', async () => {
    await writeFile(ws.file('cell.csv'), csv(3000, { line: 2020, text: '2018,x,not-a-number' }))
    await expectError(run(ws.file('cell.csv'), 'cell'), 'invalid_input', /cell\.csv line 2020: "not-a-number" in column "score" is not a number/)
    expect(await tableNames(ws.client)).not.toContain('cell')
  })

  it('bad JSON fails with its line number', async () => {
    const lines = Array.from({ length: 1500 }, (_, i) => JSON.stringify({ id: i, v: [i, i + 0.5] }))
    lines[1234] = '{"id": 1234, "v": [1,'
    await writeFile(ws.file('bad.jsonl'), lines.join('\n'))
    await expectError(run(ws.file('bad.jsonl'), 'badjson'), 'invalid_input', /bad\.jsonl line 1235 is not valid JSON/)
    expect(await tableNames(ws.client)).not.toContain('badjson')
  })

  it('a header-only CSV makes an empty table with the columns', async () => {
    await writeFile(ws.file('empty.csv'), 'a,b\n')
    const result = await run(ws.file('empty.csv'), 'empty_csv')
    expect(result.rowCount).toBe(0)
    const d = await ws.client.describeTable({ namespace: [], name: 'empty_csv' })
    expect(d.fields.map((f) => f.name)).toEqual(['a', 'b'])
  })

  it('refuses an unsupported type (Union) before writing', async () => {
    const union = new DenseUnion([0, 1], [new Field('i', new Int32()), new Field('s', new Utf8())])
    const schema = new Schema([new Field('id', new Int64(), false), new Field('u', union, true)])
    const i = makeData({ type: new Int32(), length: 1, data: Int32Array.of(5) })
    const s = batchOf(new Schema([new Field('s', new Utf8())]), [{ s: 'x' }]).getChildAt(0)!.data[0]!
    const u = makeData({ type: union, length: 1, nullCount: 0, typeIds: Int8Array.of(0), valueOffsets: Int32Array.of(0), children: [i, s] })
    const id = makeData({ type: new Int64(), length: 1, data: BigInt64Array.of(1n) })
    const batch = new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length: 1, nullCount: 0, children: [id, u] }))
    await writeFile(ws.file('union.arrow'), tableToIPC(new Table(schema, [batch]), 'file'))
    await expectError(run(ws.file('union.arrow'), 'union'), 'unsupported', /^Lance cannot store column `u` of type DenseUnion$/)
    expect(await tableNames(ws.client)).not.toContain('union')
  })

  it('refuses concatenated Arrow streams whose schemas disagree, leaving no table', async () => {
    const a = new Schema([new Field('id', new Int64(), false)])
    const b = new Schema([new Field('name', new Utf8(), true)])
    await writeArrow(ws.file('a.arrows'), 'stream', a, [batchOf(a, [{ id: 1n }])])
    await writeArrow(ws.file('b.arrows'), 'stream', b, [batchOf(b, [{ name: 'x' }])])
    const both = Buffer.concat([await readFile(ws.file('a.arrows')), await readFile(ws.file('b.arrows'))])
    await writeFile(ws.file('ab.arrows'), both)
    await expectError(run(ws.file('ab.arrows'), 'ab'), 'corrupt', /schemas disagree/)
    expect(await tableNames(ws.client)).not.toContain('ab')
  })
})

describe('append', () => {
  it('a failure mid-way puts the table back at its prior version', async () => {
    await writeFile(ws.file('base.csv'), csv(100))
    await run(ws.file('base.csv'), 'appendme')
    const before = await ws.client.describeTable({ namespace: [], name: 'appendme' })
    const rowsBefore = (await readBack(ws.client, { namespace: [], name: 'appendme' })).rows
    // Several chunks are appended before line 2900 fails.
    await writeFile(ws.file('more.csv'), csv(3000, { line: 2900, text: '2898,x,NaNx' }))
    await expectError(run(ws.file('more.csv'), 'appendme', { mode: 'append', limits: { maxRows: 100, maxBytes: 1 << 26 } }), 'invalid_input', /line 2900/)
    const after = await ws.client.describeTable({ namespace: [], name: 'appendme' })
    expect(after.rowCount).toBe(before.rowCount)
    // A newer version than before: rows were appended, then rolled back (restore commits a version).
    expect(after.version).toBeGreaterThan(before.version)
    expect((await readBack(ws.client, { namespace: [], name: 'appendme' })).rows).toEqual(rowsBefore)
  })

  it('appends when the columns match (in any order)', async () => {
    await writeFile(ws.file('reordered.csv'), 'score,id,name\n0.5,1000,z\n')
    const result = await run(ws.file('reordered.csv'), 'appendme', { mode: 'append' })
    expect(result.rowCount).toBe(101)
  })

  it('refuses different columns before writing, and names the difference', async () => {
    const before = await ws.client.describeTable({ namespace: [], name: 'appendme' })
    await writeFile(ws.file('other.csv'), 'id,label\n1,a\n')
    const error = await expectError(run(ws.file('other.csv'), 'appendme', { mode: 'append' }), 'conflict', /the file lacks "name", "score"; the table lacks "label"/)
    expect(JSON.parse(error.detail!)).toEqual({ missing: ['name', 'score'], extra: ['label'], changed: [] })
    expect((await ws.client.describeTable({ namespace: [], name: 'appendme' })).version).toBe(before.version)
  })
})

describe('overwrite', () => {
  it('keeps the old data readable while the file is read, then replaces it', async () => {
    await writeFile(ws.file('old.csv'), csv(5))
    await run(ws.file('old.csv'), 'replaced')
    await writeFile(ws.file('new.csv'), 'id,name\n' + Array.from({ length: 8000 }, (_, i) => `${i},new${i}`).join('\n'))
    // Reads that start and finish while the file is still being written (not yet committing).
    const seenWhileWriting: number[] = []
    const reads: Promise<void>[] = []
    let phase = ''
    const result = await run(ws.file('new.csv'), 'replaced', {
      mode: 'overwrite',
      progressIntervalMs: 0,
      onProgress: (p) => {
        phase = p.phase
        if (p.phase === 'writing') {
          reads.push(
            ws.client.describeTable({ namespace: [], name: 'replaced' }).then((d) => {
              if (phase === 'writing') seenWhileWriting.push(d.rowCount)
            }),
          )
        }
      },
    })
    await Promise.all(reads)
    expect(seenWhileWriting.length).toBeGreaterThan(0)
    expect(new Set(seenWhileWriting)).toEqual(new Set([5]))
    expect(result.rowCount).toBe(8000)
    const back = await readBack(ws.client, { namespace: [], name: 'replaced' })
    expect(back.table.schema.fields.map((f) => f.name)).toEqual(['id', 'name'])
    expect(await leftovers()).toEqual([])
  })

  it('a failure leaves the old table as it was and no staging table', async () => {
    const before = await readBack(ws.client, { namespace: [], name: 'replaced' })
    await writeFile(ws.file('broken.csv'), csv(3000, { line: 2999, text: '1,2' }))
    await expectError(run(ws.file('broken.csv'), 'replaced', { mode: 'overwrite' }), 'invalid_input', /line 2999/)
    expect((await readBack(ws.client, { namespace: [], name: 'replaced' })).rows).toEqual(before.rows)
    expect(await leftovers()).toEqual([])
  })
})
