import { writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import { openSource, writeSource } from '../../../src/core/import'
import type { NamespaceClient } from '../../../src/core/namespace/client'
import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/rest'
import { KEY, serveTemp, tempDir } from '../../server/support'
import { KITCHEN_SCHEMA, kitchenTable, writeArrow } from '../../fixtures/import/arrow'
import { byId, readBack } from './helpers'

/**
 * Remote targets: the same pipeline writes through the REST client into our REST catalog server
 * (real HTTP on loopback): create streams Arrow IPC bodies, append rolls back with restore.
 */
let server: Awaited<ReturnType<typeof serveTemp>>
let files: Awaited<ReturnType<typeof tempDir>>
let client: NamespaceClient
const file = (name: string) => `${files.dir}/${name}`
const limits = { maxRows: 500, maxBytes: 1 << 26 }

beforeAll(async () => {
  server = await serveTemp()
  files = await tempDir('lcb-import-files-')
  client = await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': KEY })
  await writeArrow(file('kitchen.arrow'), 'file', KITCHEN_SCHEMA, kitchenTable(1800, 700).batches)
})

afterAll(async () => {
  await client?.close()
  await server?.close()
  await files?.cleanup()
})

async function run(path: string, name: string, mode: 'create' | 'append', signal?: AbortSignal, onRows?: (rows: number) => void) {
  return writeSource(client, { namespace: [], name }, await openSource(path, { inferRows: 100 }), {
    mode,
    limits,
    signal,
    progressIntervalMs: 0,
    onProgress: (p) => onRows?.(p.rows),
  })
}

describe('import into a REST catalog', () => {
  it('creates a table chunk by chunk and reads back equal rows', async () => {
    const path = file('kitchen.arrow')
    const result = await run(path, 'kitchen', 'create')
    expect(result.rowCount).toBe(1800)
    const local = kitchenTable(1800, 700)
    const back = await readBack(client, { namespace: [], name: 'kitchen' })
    expect(byId(back.rows).map((r) => [r.id, r.label])).toEqual(local.toArray().map((r) => [String(r!.id), r!.label]))
  })

  it('a failing append is rolled back to the prior rows', async () => {
    await writeFile(file('base.csv'), 'id,name\n1,a\n2,b\n')
    await run(file('base.csv'), 'appendme', 'create')
    const lines = ['id,name', ...Array.from({ length: 1500 }, (_, i) => `${i + 10},n${i}`)]
    lines[1400] = 'x,y' // line 1401: not a whole number
    await writeFile(file('more.csv'), lines.join('\n'))
    await expect(run(file('more.csv'), 'appendme', 'append')).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/line 1401/) })
    expect((await client.describeTable({ namespace: [], name: 'appendme' })).rowCount).toBe(2)
  })

  it('a cancelled create leaves no table on the server', async () => {
    const controller = new AbortController()
    const error = await run(file('kitchen.arrow'), 'cancelled', 'create', controller.signal, (rows) => {
      if (rows > 0) controller.abort()
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('cancelled')
    expect((await client.listTables([], { limit: 100 })).items).not.toContain('cancelled')
  })
})
