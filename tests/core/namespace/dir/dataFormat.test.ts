import { cp } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dataFilesOf, probeDataFiles, readDataFormat, tableUri } from '../../../../src/core/namespace/dir/dataFormat'
import { makeTempDir, removeDir } from '../../../helpers/catalog'

/**
 * The one reader of a table's data file format: on this disk it reads the latest manifest, elsewhere it asks Lance
 * (one row taken by position, which legacy files refuse). Both must give the same answer for every writer's tables
 * (tests/fixtures/writers, and tables our own lancedb writes in the legacy and the default format).
 */
const FIXTURES = resolve(__dirname, '../../../fixtures/writers')
const WRITERS = [
  { writer: 'vectordb-0.4.20', legacy: true },
  { writer: 'vectordb-0.21.2', legacy: false },
  { writer: 'lancedb-0.22.3', legacy: false },
  { writer: 'lancedb-0.39.0', legacy: false },
  { writer: 'lancedb-0.31 legacy', legacy: true },
  { writer: 'lancedb-0.31', legacy: false },
]

let base: string
beforeAll(async () => {
  base = await makeTempDir('lcb-data-format-')
})
afterAll(async () => {
  await removeDir(base)
})

describe.each(WRITERS)('a table written by $writer', ({ writer, legacy }) => {
  let db: lancedb.Connection
  let table: lancedb.Table

  beforeAll(async () => {
    const root = join(base, writer.replaceAll(' ', '-'))
    if (writer.startsWith('lancedb-0.31')) {
      // Our own lancedb: two versions, in the format asked for.
      const rows = Array.from({ length: 20 }, (_, i) => ({ id: i, name: `n${i}` }))
      const own = await lancedb.connect(root)
      const made = await own.createTable('items', rows, legacy ? { storageOptions: { new_table_data_storage_version: 'legacy' } } : {})
      await made.add([{ id: 20, name: 'n20' }])
      made.close()
      own.close()
    } else await cp(join(FIXTURES, writer), root, { recursive: true }) // a copy: the committed fixture is never opened in place
    db = await lancedb.connect(root)
    table = await db.openTable('items')
  })
  afterAll(() => {
    table.close()
    db.close()
  })

  it(`is ${legacy ? '' : 'not '}legacy by its manifest and by Lance's own answer alike`, async () => {
    const manifest = await readDataFormat(tableUri(table))
    expect(manifest === 'legacy').toBe(legacy)
    expect(await probeDataFiles(table)).toBe(legacy ? 'legacy' : 'v2')
    expect(await dataFilesOf(table)).toBe(legacy ? 'legacy' : 'v2')
  })

  it('a handle at an older version answers the same (a table keeps its format)', async () => {
    const old = await db.openTable('items')
    await old.checkout(1)
    expect(await dataFilesOf(old)).toBe(legacy ? 'legacy' : 'v2')
    old.close()
  })
})
