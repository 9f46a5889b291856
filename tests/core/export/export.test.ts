import { execFile } from 'node:child_process'
import { chmod, mkdir, readFile, readdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { tableFromIPC, type Table } from 'apache-arrow'
import { parse } from 'csv-parse/sync'
import { buildSync } from 'esbuild'
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cellValue, jsonText, type ConnectionInfo, type ExportFormat, type ExportJobInfo, type JobInfo, type Result } from '../../../src/contract'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { buildCatalog, inspectTable, LONG_TEXT, makeTempDir, removeDir, INSPECT_DIMENSION } from '../../helpers/catalog'

const run = promisify(execFile)
const ROWS = 25_000
const START = 9_007_199_254_740_993n
const DIM = 16

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

function vectorValue(row: number, k: number): number {
  return Math.fround(row + k / 1000)
}

describe('export a table view (core, real Lance tables)', () => {
  let base: string
  let out: string
  let service: CatalogService
  let connection: ConnectionInfo
  const events: ExportJobInfo[] = []

  beforeAll(async () => {
    base = await makeTempDir('lcb-export-')
    out = join(base, 'out')
    await mkdir(out)
    const root = await buildCatalog(join(base, 'catalog'), {
      namespaces: [['ns']],
      tables: [
        { namespace: ['ns'], name: 'rows', rows: ROWS, sample: { start: START, dimension: DIM } },
        { namespace: ['ns'], name: 'kinds', data: inspectTable() },
        { namespace: ['ns'], name: 'empty', rows: 0, sample: { dimension: 4 } },
      ],
    })
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore(), emit: (name, payload) => {
        if (name !== 'jobs/progress' || (payload as JobInfo).kind !== 'export') return
        const job = payload as ExportJobInfo
        events.push(job)
        if (job.fileName.startsWith('cancel-') && job.state === 'running' && job.progress.rows > 0) service.exports.jobs.cancel(job.id)
      },
    })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  })
  afterAll(async () => {
    await service.closeAll()
    await removeDir(base)
  })

  async function exportTo(name: string, format: ExportFormat, file: string, view: object = {}): Promise<ExportJobInfo> {
    const job = value<ExportJobInfo>(await service.dispatch('export/start', { connectionId: connection.id, namespace: ['ns'], name, view, format, path: join(out, file) }))
    return service.exports.jobs.wait(job.id)
  }

  async function tableRows(name: string): Promise<Table> {
    return tableFromIPC(await service.client(connection.id).readPage({ namespace: ['ns'], name }, { offset: 0, limit: 100_000 }))
  }

  it('writes CSV that reads back as the table (header, int64 exact, nulls empty, vectors whole)', async () => {
    const job = await exportTo('rows', 'csv', 'rows.csv')
    expect(job.state).toBe('done')
    expect(job.result?.rows).toBe(ROWS)
    const records = parse(await readFile(join(out, 'rows.csv')), { columns: true }) as Record<string, string>[]
    expect(records).toHaveLength(ROWS)
    for (const i of [0, 1, 5, 9_999, 10_000, ROWS - 1]) {
      const r = records[i]!
      expect(r.id).toBe((START + BigInt(i)).toString())
      expect(r.label).toBe(`row-${i}`)
      expect(Number(r.score)).toBe(i / 2)
      expect(r.note).toBe(i % 5 === 0 ? '' : `note ${i}`)
      expect(JSON.parse(r.vector!)).toEqual(Array.from({ length: DIM }, (_, k) => vectorValue(i, k)))
    }
  })

  it('writes JSON lines, one object per row, int64 as exact digits and nulls as null', async () => {
    const job = await exportTo('rows', 'jsonl', 'rows.jsonl')
    expect(job.state).toBe('done')
    const lines = (await readFile(join(out, 'rows.jsonl'), 'utf8')).trimEnd().split('\n')
    expect(lines).toHaveLength(ROWS)
    for (const i of [0, 3, 17_001, ROWS - 1]) {
      const line = lines[i]!
      expect(line.match(/^\{"id":(\d+),/)?.[1]).toBe((START + BigInt(i)).toString())
      const row = JSON.parse(line) as Record<string, unknown>
      expect(row.label).toBe(`row-${i}`)
      expect(row.note).toBe(i % 5 === 0 ? null : `note ${i}`)
      expect(row.vector).toEqual(Array.from({ length: DIM }, (_, k) => vectorValue(i, k)))
    }
  })

  it('writes an Arrow IPC file with the same schema and rows', async () => {
    const job = await exportTo('rows', 'arrow', 'rows.arrow')
    expect(job.state).toBe('done')
    const bytes = await readFile(join(out, 'rows.arrow'))
    expect(bytes.subarray(0, 6).toString('latin1')).toBe('ARROW1')
    const table = tableFromIPC(bytes)
    const original = await tableRows('rows')
    expect(table.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(original.schema.fields.map((f) => `${f.name}:${f.type}`))
    expect(table.numRows).toBe(ROWS)
    const cells = (t: Table, i: number) => t.schema.fields.map((f) => jsonText(cellValue(t.getChild(f.name)!, i), f.type))
    for (const i of [0, 8191, 8192, ROWS - 1]) expect(cells(table, i)).toEqual(cells(original, i))
  })

  it('writes Parquet that hyparquet reads back, with int64 and vectors kept', async () => {
    const job = await exportTo('rows', 'parquet', 'rows.parquet')
    expect(job.state).toBe('done')
    const buffer = await readFile(join(out, 'rows.parquet'))
    const file = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength)
    const rows = (await parquetReadObjects({ file })) as Record<string, unknown>[]
    expect(rows).toHaveLength(ROWS)
    for (const i of [0, 4, 12_345, ROWS - 1]) {
      const r = rows[i]!
      expect(r.id).toBe(START + BigInt(i))
      expect(r.label).toBe(`row-${i}`)
      expect(r.score).toBe(i / 2)
      expect(r.note).toBe(i % 5 === 0 ? null : `note ${i}`)
      expect(r.vector).toEqual(Array.from({ length: DIM }, (_, k) => vectorValue(i, k)))
    }
  })

  it('keeps every kind of value: timestamps, binary, structs, lists, 768-d vectors, 10 KB text', async () => {
    const original = await tableRows('kinds')
    // Arrow: the same types and values.
    expect((await exportTo('kinds', 'arrow', 'kinds.arrow')).state).toBe('done')
    const arrow = tableFromIPC(await readFile(join(out, 'kinds.arrow')))
    expect(arrow.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(original.schema.fields.map((f) => `${f.name}:${f.type}`))
    expect(arrow.getChild('title')?.get(0)).toBe(LONG_TEXT)
    expect(arrow.getChild('image')?.get(0)).toEqual(original.getChild('image')?.get(0))
    // Parquet: timestamps keep their unit, the struct and list their shape.
    expect((await exportTo('kinds', 'parquet', 'kinds.parquet')).state).toBe('done')
    const buffer = await readFile(join(out, 'kinds.parquet'))
    const file = buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength)
    const schema = parquetSchema(parquetMetadata(file))
    const at = schema.children.find((c) => c.element.name === 'at')!.element
    expect(at.logical_type).toMatchObject({ type: 'TIMESTAMP', unit: 'MICROS', isAdjustedToUTC: true })
    const rows = (await parquetReadObjects({ file, utf8: true })) as Record<string, unknown>[]
    expect(rows[0]!.title).toBe(LONG_TEXT)
    expect(rows[1]!.meta).toEqual({ a: 10, b: null })
    expect(rows[3]!.tags).toEqual(['t0', 't1', 't2'])
    expect((rows[1]!.embedding as number[]).length).toBe(INSPECT_DIMENSION)
    const images = (await parquetReadObjects({ file, columns: ['image'], utf8: false })) as { image: Uint8Array }[]
    expect(images[0]!.image).toEqual(original.getChild('image')?.get(0))
    // CSV: microseconds kept, binary base64, nested values as JSON.
    expect((await exportTo('kinds', 'csv', 'kinds.csv')).state).toBe('done')
    const records = parse(await readFile(join(out, 'kinds.csv')), { columns: true }) as Record<string, string>[]
    expect(records[0]!.title).toBe(LONG_TEXT)
    expect(records[1]!.title).toBe('title "1",\ttab\nline')
    expect(records[0]!.at).toBe('2024-05-01T12:00:00.123456Z')
    expect(Buffer.from(records[0]!.image!, 'base64')).toEqual(Buffer.from(original.getChild('image')!.get(0) as Uint8Array))
    expect(JSON.parse(records[1]!.meta!)).toEqual({ a: 10, b: null })
    expect(JSON.parse(records[2]!.tags!)).toEqual(['t0', 't1'])
    expect(JSON.parse(records[1]!.embedding!)).toHaveLength(INSPECT_DIMENSION)
    expect(records[2]!.image).toBe('')
  })

  it('exports only the view\'s visible columns, in the view\'s order', async () => {
    expect((await exportTo('rows', 'csv', 'two.csv', { columns: ['label', 'id'] })).state).toBe('done')
    const text = await readFile(join(out, 'two.csv'), 'utf8')
    expect(text.split('\n').slice(0, 2)).toEqual(['label,id', `row-0,${START}`])
    const job = await exportTo('rows', 'csv', 'bad.csv', { columns: ['nope'] })
    expect(job.state).toBe('failed')
    expect(job.error?.message).toBe('The table has no column named "nope"')
  })

  it('writes the header (CSV) and schema (Arrow, Parquet) of an empty table', async () => {
    expect((await exportTo('empty', 'csv', 'empty.csv')).state).toBe('done')
    expect(await readFile(join(out, 'empty.csv'), 'utf8')).toBe('id,label,score,note,vector\n')
    expect((await exportTo('empty', 'arrow', 'empty.arrow')).state).toBe('done')
    const arrow = tableFromIPC(await readFile(join(out, 'empty.arrow')))
    expect(arrow.numRows).toBe(0)
    expect(arrow.schema.fields.map((f) => f.name)).toEqual(['id', 'label', 'score', 'note', 'vector'])
    expect((await exportTo('empty', 'parquet', 'empty.parquet')).state).toBe('done')
    const buffer = await readFile(join(out, 'empty.parquet'))
    const meta = parquetMetadata(buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength))
    expect(Number(meta.num_rows)).toBe(0)
  })

  it('publishes progress (rows, bytes, rate) and the final state', async () => {
    events.length = 0
    const job = await exportTo('rows', 'jsonl', 'progress.jsonl')
    const mine = events.filter((e) => e.id === job.id)
    expect(mine[0]!.state).toBe('running')
    expect(mine.at(-1)!.state).toBe('done')
    expect(mine.at(-1)!.result).toEqual({ rows: ROWS, bytes: (await readFile(join(out, 'progress.jsonl'))).length })
    expect(value<JobInfo[]>(await service.dispatch('jobs/list', {})).some((j) => j.id === job.id)).toBe(true)
  })

  it('leaves no file (and no temporary file) when cancelled mid-way', async () => {
    const folder = join(base, 'cancel')
    await mkdir(folder)
    for (const format of ['csv', 'jsonl', 'arrow', 'parquet'] as const) {
      // The emit hook cancels as soon as the first batch is written, before the next one is read:
      // the job cannot finish first (the table has 4 pages), whatever the machine's speed.
      const started = value<ExportJobInfo>(await service.dispatch('export/start', { connectionId: connection.id, namespace: ['ns'], name: 'rows', view: {}, format, path: join(folder, `cancel-rows.${format}`) }))
      const final = await service.exports.jobs.wait(started.id)
      expect(final.state).toBe('cancelled')
      expect(final.progress.rows).toBeGreaterThan(0)
      expect(final.progress.rows).toBeLessThan(ROWS)
      expect(await readdir(folder)).toEqual([])
    }
  })

  it('refuses a folder under a regular file with a clear error, before a job exists, and writes nothing', async () => {
    const file = join(base, 'not-a-folder')
    await writeFile(file, 'x')
    const refused = await service.dispatch('export/start', { connectionId: connection.id, namespace: ['ns'], name: 'rows', view: {}, format: 'csv', path: join(file, 'rows.csv') })
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.error.message).toBe(`Cannot write into ${file}: it is not a folder`)
    expect(await readFile(file, 'utf8')).toBe('x')
  })

  it('refuses a read-only folder (checked as "nobody": root writes anywhere)', async () => {
    const folder = join(base, 'readonly')
    await mkdir(folder)
    await chmod(base, 0o755)
    await chmod(folder, 0o555)
    const entry = join(base, 'probe-entry.ts')
    const probe = join(base, 'probe.cjs')
    await writeFile(
      entry,
      `import { writeFileAtomically } from ${JSON.stringify(resolve('src/core/export/file.ts'))}
writeFileAtomically(process.argv[2], async (sink) => { await sink.write('a,b\\n') }).then(() => console.log('{"written":true}'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message, hint: e.hint })))`,
    )
    buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: probe, logLevel: 'silent' })
    await chmod(probe, 0o644)
    const target = join(folder, 'rows.csv')
    const { stdout } = await run('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, probe, target], { cwd: base })
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({
      code: 'permission_denied',
      message: `Cannot write into ${folder}: permission denied`,
      hint: 'Choose a folder you can write to',
    })
    expect(await readdir(folder)).toEqual([])
  })
})
