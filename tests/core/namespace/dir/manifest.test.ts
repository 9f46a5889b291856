import { existsSync } from 'node:fs'
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { connectNamespace as lanceConnect } from '@lancedb/lancedb'
import { tableToIPC } from 'apache-arrow'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSource } from '../../../../src/core/import/open'
import { writeSource } from '../../../../src/core/import/write'
import { DirNamespaceClient } from '../../../../src/core/namespace/dir'
import { CatalogManifest } from '../../../../src/core/namespace/dir/manifest'
import { stagingName } from '../../../../src/core/namespace/dir/staging'
import { makeTempDir, removeDir, sampleTable } from '../../../helpers/catalog'
import { appError } from '../../../helpers/errors'

/** What lancedb itself (not our client) lists: a lancedb user must see the same catalog. */
async function lanceTables(root: string, namespace: string[]): Promise<string[]> {
  const db = await lanceConnect('dir', { root })
  try {
    return await db.tableNames(namespace)
  } finally {
    db.close()
  }
}

async function manifestIds(root: string): Promise<string[]> {
  const m = new CatalogManifest(root)
  try {
    return (await m.query('true')).map((r) => `${r.object_type}:${r.object_id}`).sort()
  } finally {
    await m.close()
  }
}

describe('renaming, publishing and swapping on a directory catalog', () => {
  let root: string
  let client: DirNamespaceClient

  beforeEach(async () => {
    root = join(await makeTempDir(), 'catalog')
    client = await DirNamespaceClient.open(root, { create: true })
    await client.createNamespace(['ns'])
    await client.createNamespace(['other'])
  })
  afterEach(async () => {
    await client.close()
    await removeDir(join(root, '..'))
  })

  it('renames a root table: the directory moves, the old name is listed by nobody', async () => {
    await client.createTable({ namespace: [], name: 'a' }, sampleTable(5))
    await client.renameTable({ namespace: [], name: 'a' }, 'b')
    expect((await client.listTables([])).items).toEqual(['b'])
    expect(await lanceTables(root, [])).toEqual(['b'])
    expect(existsSync(join(root, 'a.lance'))).toBe(false)
    expect((await client.describeTable({ namespace: [], name: 'b' })).rowCount).toBe(5)
    expect(await manifestIds(root)).toEqual(['namespace:ns', 'namespace:other', 'table:b'])
    await client.dropTable({ namespace: [], name: 'b' })
    expect(await readdir(root)).not.toContain('b.lance')
  })

  it('renames inside a child namespace, across namespaces, and into and out of the root', async () => {
    await client.createTable({ namespace: ['ns'], name: 't' }, sampleTable(3))
    await client.renameTable({ namespace: ['ns'], name: 't' }, 'u')
    expect((await client.listTables(['ns'])).items).toEqual(['u'])
    await client.renameTable({ namespace: ['ns'], name: 'u' }, 'v', { newNamespace: ['other'] })
    expect((await client.listTables(['ns'])).items).toEqual([])
    expect(await lanceTables(root, ['other'])).toEqual(['v'])
    await client.renameTable({ namespace: ['other'], name: 'v' }, 'top', { newNamespace: [] })
    expect(await lanceTables(root, [])).toEqual(['top'])
    expect(await lanceTables(root, ['other'])).toEqual([])
    await client.renameTable({ namespace: [], name: 'top' }, 'deep', { newNamespace: ['ns'] })
    expect(await lanceTables(root, [])).toEqual([])
    expect((await client.describeTable({ namespace: ['ns'], name: 'deep' })).rowCount).toBe(3)
    expect((await readdir(root)).filter((n) => n.endsWith('.lance'))).toEqual([])
    expect(await manifestIds(root)).toEqual(['namespace:ns', 'namespace:other', 'table:ns$deep'])
  })

  it('refuses a name taken by a table or a namespace, and a missing target namespace', async () => {
    await client.createTable({ namespace: [], name: 'a' }, sampleTable(1))
    await client.createTable({ namespace: [], name: 'b' }, sampleTable(2))
    const table = await appError(client.renameTable({ namespace: [], name: 'a' }, 'b'))
    expect(table.code).toBe('already_exists')
    expect(table.message).toMatch(/taken by a table/)
    const ns = await appError(client.renameTable({ namespace: [], name: 'a' }, 'ns'))
    expect(ns.code).toBe('already_exists')
    expect(ns.message).toMatch(/taken by a namespace/)
    expect((await appError(client.renameTable({ namespace: [], name: 'a' }, 'x', { newNamespace: ['nope'] }))).code).toBe('not_found')
    expect((await client.describeTable({ namespace: [], name: 'a' })).rowCount).toBe(1)
    expect((await client.describeTable({ namespace: [], name: 'b' })).rowCount).toBe(2)
  })

  it('keeps tables and namespaces in one name space: create and createNamespace refuse the other kind, leaving nothing', async () => {
    const before = await readdir(root)
    for (const create of [
      () => client.createTable({ namespace: [], name: 'ns' }, sampleTable(1)),
      () => client.createEmptyTable({ namespace: [], name: 'ns' }, sampleTable(1).schema),
    ]) {
      const error = await appError(create())
      expect(error.code).toBe('already_exists')
      expect(error.message).toMatch(/namespace/)
    }
    expect(await readdir(root)).toEqual(before)
    expect(await lanceTables(root, [])).toEqual([])
    await client.createTable({ namespace: ['ns'], name: 'child' }, sampleTable(1))
    const nsOverTable = await appError(client.createNamespace(['ns', 'child']))
    expect(nsOverTable.code).toBe('already_exists')
    expect(nsOverTable.message).toMatch(/taken by a table/)
    expect(await manifestIds(root)).toEqual(['namespace:ns', 'namespace:other', 'table:ns$child'])
  })

  it('an import whose name is taken by a namespace fails in words and leaves nothing (staging dropped)', async () => {
    const file = join(root, '..', 'rows.arrow')
    await writeFile(file, tableToIPC(sampleTable(50), 'file'))
    const before = await readdir(root)
    const error = await appError(writeSource(client, { namespace: [], name: 'ns' }, await openSource(file), { mode: 'create' }))
    expect(error.code).toBe('already_exists')
    expect(error.message).toMatch(/taken by a namespace/)
    expect(await readdir(root)).toEqual(before)
    expect(await lanceTables(root, [])).toEqual([])
    expect(await manifestIds(root)).toEqual(['namespace:ns', 'namespace:other'])
  })

  it('overwrite swaps the complete new data in (root and child), leaving no staging table', async () => {
    for (const namespace of [[], ['ns']]) {
      const id = { namespace, name: 'w' }
      await client.createTable(id, sampleTable(4))
      await client.createTable(id, sampleTable(7), { mode: 'overwrite' }) // one lancedb commit: history kept
      expect(await client.describeTable(id)).toMatchObject({ rowCount: 7, version: 2 })
      const staging = { namespace, name: stagingName('w') }
      await client.createTable(staging, sampleTable(9))
      expect(await lanceTables(root, namespace)).toContain(staging.name) // lancedb users see it while it is written
      expect((await client.listTables(namespace)).items).toEqual(['w']) // we do not
      await client.replaceTable(staging, id)
      expect((await client.describeTable(id)).rowCount).toBe(9)
      expect(await lanceTables(root, namespace)).toEqual(['w'])
    }
    expect(await manifestIds(root)).toEqual(['namespace:ns', 'namespace:other', 'table:ns$w', 'table:w'])
    expect((await readdir(root)).filter((n) => n.startsWith('.lcb-'))).toEqual([])
  })

  it('drops a damaged table: a row whose directory is gone, and a half-written directory', async () => {
    await client.createTable({ namespace: ['ns'], name: 'gone' }, sampleTable(1))
    const m = new CatalogManifest(root)
    const [row] = await m.find('ns$gone')
    await m.close()
    await rm(join(root, row!.location!), { recursive: true })
    await client.dropTable({ namespace: ['ns'], name: 'gone' })
    expect((await client.listTables(['ns'])).items).toEqual([])

    // What lancedb's own create leaves when the name is a namespace's: a listed `ns.lance` no drop could remove.
    const db = await lanceConnect('dir', { root })
    await expect(db.createTable('ns', [{ x: 1 }], [])).rejects.toThrow(/Concurrent modification|already exists/)
    db.close()
    expect(await lanceTables(root, [])).toEqual(['ns'])
    await client.dropTable({ namespace: [], name: 'ns' })
    expect(await lanceTables(root, [])).toEqual([])
    expect((await client.listNamespaces([])).items).toContain('ns') // the namespace is untouched

    // A manifest holding the id twice (a table row beside the namespace row): the drop takes the table only.
    await client.createTable({ namespace: ['ns'], name: 'kid' }, sampleTable(1))
    const damaged = new CatalogManifest(root)
    await damaged.addTable('ns', 'ns.lance')
    await damaged.close()
    await client.dropTable({ namespace: [], name: 'ns' })
    expect(await manifestIds(root)).toEqual(['namespace:ns', 'namespace:other', 'table:ns$kid'])

    await mkdir(join(root, 'half.lance', 'data'), { recursive: true })
    await writeFile(join(root, 'half.lance', 'data', 'x.lance'), 'partial')
    expect(await lanceTables(root, [])).toContain('half')
    await client.dropTable({ namespace: [], name: 'half' })
    expect(existsSync(join(root, 'half.lance'))).toBe(false)
  })
})
