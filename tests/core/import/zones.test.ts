/**
 * Timestamps whose zone is an offset (`+05:30`, `+0530`, `UTC+01`) or a name no zone database knows import from
 * Parquet and Arrow files: normalised to UTC (the same instants), the file's zone kept in the field's metadata and
 * said in the sheet's conversions. Zone names Lance and the app's readers know stay as they are. Through the service,
 * as the sheet and the jobs panel call it, on a real catalog; the table is read back with lancedb itself.
 */
import { connect } from '@lancedb/lancedb'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportJobInfo, ImportPreview, Result } from '../../../src/contract'
import { connectNamespace } from '../../../src/core/namespace/connect'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { fromLanceError } from '../../../src/core/namespace/dir/errors'
import { toAppError } from '../../../src/core/errors'
import { keepsZone } from '../../../src/core/arrow/zones'
import { writeZonedArrow, writeZonedParquet } from '../../fixtures/import/zoned'

let dir: string
let catalog: string
let service: CatalogService
let connectionId: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lcb-zones-'))
  catalog = join(dir, 'catalog')
  await (await connectNamespace('dir', { root: catalog, create: 'true' })).close()
  service = new CatalogService({ host: 'harness', version: 'test', recents: new MemoryRecentsStore() })
  connectionId = (value(await service.dispatch('connections/openDirectory', { path: catalog })) as { id: string }).id
})

afterAll(async () => {
  await service.closeAll()
  await rm(dir, { recursive: true, force: true })
})

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.value
}

const FORMATS = [
  { ext: 'parquet', write: writeZonedParquet },
  { ext: 'arrow', write: writeZonedArrow },
] as const

/** The instants the fixtures write: 2023-11-14T22:13:20Z and a second apart. */
const INSTANTS = [1_700_000_000_000, 1_700_000_001_000, 1_700_000_002_000]

describe.each(FORMATS)('a $ext file', ({ ext, write }) => {
  it.each(['+05:30', '+0530', 'UTC+01', 'Mars/Olympus', '+00:00'])('with timestamps in zone %s imports them in UTC, the zone kept and said', async (zone) => {
    const name = `z_${ext}_${zone.replace(/\W/g, '_')}`
    const path = join(dir, `${name}.${ext}`)
    await write(path, zone)
    const source = { path }

    const preview = value(await service.dispatch('import/preview', { connectionId, namespace: [], source })) as ImportPreview
    expect(preview.conversions).toEqual([
      { column: 'ts', from: `Timestamp[ms, ${zone}]`, to: 'Timestamp[ms, UTC]', note: expect.stringContaining(`the file's zone ${zone} is kept in the column's metadata`) },
    ])
    expect(preview.schema.find((f) => f.name === 'ts')?.type).toBe('Timestamp<MILLISECOND, UTC>')
    const sample = tableFromIPC(value(await service.dispatch('import/sample', { connectionId, namespace: [], source })) as Uint8Array)
    expect(Array.from(sample.getChild('ts')!.toArray() as BigInt64Array, Number)).toEqual(INSTANTS)

    const job = value(await service.dispatch('import/start', { connectionId, namespace: [], name, mode: 'create', source })) as ImportJobInfo
    const done = await service.imports.jobs.wait(job.id)
    expect(done.error ?? null).toBeNull()
    expect(done).toMatchObject({ state: 'done', result: { rowCount: 3 } })

    // Read back by lancedb itself: UTC, the same instants, the file's zone in the field's metadata.
    const db = await connect(catalog)
    const table = await db.openTable(name)
    const rows = await table.query().toArrow()
    const field = rows.schema.fields.find((f) => f.name === 'ts')!
    expect(String(field.type)).toBe('Timestamp<MILLISECOND, UTC>')
    expect(field.metadata.get('lcb:original_timezone')).toBe(zone)
    expect(Array.from(rows.getChild('ts')!.toArray() as BigInt64Array, Number)).toEqual(INSTANTS)
    // A filter on the column works (a zone Lance stored but cannot compute in would fail here).
    expect(await table.countRows("ts >= TIMESTAMP '2023-11-14 22:13:21'")).toBe(2)
    table.close()
    db.close()
  })

  it.each(['Asia/Kolkata', 'UTC'])('with timestamps in zone %s keeps the zone (nothing to convert)', async (zone) => {
    const name = `k_${ext}_${zone.replace(/\W/g, '_')}`
    const path = join(dir, `${name}.${ext}`)
    await write(path, zone)
    const preview = value(await service.dispatch('import/preview', { connectionId, namespace: [], source: { path } })) as ImportPreview
    expect(preview.conversions ?? []).toEqual([])
    expect(preview.schema.find((f) => f.name === 'ts')?.type).toBe(`Timestamp<MILLISECOND, ${zone}>`)
    const done = await service.imports.jobs.wait((value(await service.dispatch('import/start', { connectionId, namespace: [], name, mode: 'create', source: { path } })) as ImportJobInfo).id)
    expect(done).toMatchObject({ state: 'done', result: { rowCount: 3 } })
    const db = await connect(catalog)
    const rows = await (await db.openTable(name)).query().toArrow()
    expect(String(rows.schema.fields.find((f) => f.name === 'ts')!.type)).toBe(`Timestamp<MILLISECOND, ${zone}>`)
    expect(Array.from(rows.getChild('ts')!.toArray() as BigInt64Array, Number)).toEqual(INSTANTS)
    db.close()
  })
})

describe('which zones are kept', () => {
  it('keeps UTC and zone names as the IANA database spells them; normalises offsets, unknown and misspelt names', () => {
    for (const zone of ['UTC', 'Asia/Kolkata', 'America/New_York', 'Etc/GMT-5', 'EST', 'GMT']) expect(keepsZone(zone), zone).toBe(true)
    for (const zone of ['+05:30', '+0530', '-08:00', 'UTC+01', 'GMT-3', 'Mars/Olympus', 'utc', 'asia/kolkata', 'Z', '']) expect(keepsZone(zone), zone).toBe(false)
  })
})

describe('a Lance panic', () => {
  it('is said in words with what the user can do, wherever it is caught', () => {
    const panic = new Error('Panic in async function')
    const dirError = fromLanceError(panic, { table: { namespace: [], name: 'events' } })
    expect(dirError.message).toBe('Lance stopped on an internal failure (a panic) while it worked on table events, so the step did not finish')
    expect(dirError.message).not.toMatch(/Unexpected error/)
    expect(dirError.hint).toMatch(/Nothing was changed by this step.*Try again.*log/s)
    expect(dirError.detail).toMatch(/log/)
    expect(toAppError(panic).message).toBe('Lance stopped on an internal failure (a panic) while it worked on the table, so the step did not finish')
  })
})
