import { writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSource, writeSource } from '../../../src/core/import'
import { KITCHEN_SCHEMA, kitchenTable, writeArrow } from '../../fixtures/import/arrow'
import { byId, readBack, workspace, type Workspace } from './helpers'

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  await ws.cleanup()
})

/**
 * A second Arrow implementation as producer: the dir client's pages are record batches encoded by
 * arrow-rs inside Lance's Rust engine, re-framed byte for byte as an IPC stream (src/core/arrow/ipc.ts),
 * never decoded and re-encoded by apache-arrow. Written to disk, such a stream must import as is.
 */
describe('Arrow IPC stream written by arrow-rs (Lance) round-trips', () => {
  it('imports a stream whose batches arrow-rs encoded, with equal rows', async () => {
    const ROWS = 6_000
    const source = ws.file('source.arrow')
    await writeArrow(source, 'file', KITCHEN_SCHEMA, kitchenTable(ROWS, 2_000).batches)
    await writeSource(ws.client, { namespace: [], name: 'origin' }, await openSource(source), { mode: 'create' })

    const rustBytes = await ws.client.readPage({ namespace: [], name: 'origin' }, { offset: 0, limit: ROWS })
    const rustFile = ws.file('from-rust.arrows')
    await writeFile(rustFile, rustBytes)

    const opened = await openSource(rustFile)
    expect(opened.format).toBe('arrow-stream')
    const result = await writeSource(ws.client, { namespace: [], name: 'from_rust' }, opened, { mode: 'create' })
    expect(result.rowCount).toBe(ROWS)

    const original = await readBack(ws.client, { namespace: [], name: 'origin' })
    const copy = await readBack(ws.client, { namespace: [], name: 'from_rust' })
    expect(copy.table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`)).toEqual(original.table.schema.fields.map((f) => `${f.name}: ${String(f.type)}`))
    expect(byId(copy.rows)).toEqual(byId(original.rows))
  })
})
