import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NamespacePath } from '../../../../src/contract'
import { listAll, type NamespaceClient } from '../../../../src/core/namespace/client'
import { DirNamespaceClient } from '../../../../src/core/namespace/dir'
import { buildCatalog, diffSnapshots, DEMO_TABLES, ensureDemoCatalog, makeTempDir, removeDir, snapshotTree } from '../../../helpers/catalog'

/**
 * Browsing must not modify a catalog ("never write on read"). Upstream, opening a dir namespace
 * created `__manifest`; lancedb 0.31.0 still does for a directory without one. We hash every file
 * (path, size, mtime, content) and every directory (mtime), browse everything, and compare.
 */
async function browseEverything(client: NamespaceClient): Promise<{ namespaces: number; tables: number; pages: number }> {
  const counts = { namespaces: 0, tables: 0, pages: 0 }
  async function visit(namespace: NamespacePath): Promise<void> {
    counts.namespaces++
    // A small page size so the walk also follows page tokens.
    for (const name of await listAll((o) => client.listTables(namespace, o), { limit: 2 })) {
      const id = { namespace, name }
      const { rowCount, fields } = await client.describeTable(id)
      counts.tables++
      const last = Math.max(0, rowCount - 10)
      for (const offset of [0, Math.floor(rowCount / 2), last, rowCount + 100]) {
        const page = tableFromIPC(await client.readPage(id, { offset, limit: 10 }))
        expect(page.numRows).toBe(Math.max(0, Math.min(10, rowCount - offset)))
        counts.pages++
      }
      await client.readPage(id, { offset: 0, limit: 5, columns: [fields[0]!.name] })
    }
    for (const child of await listAll((o) => client.listNamespaces(namespace, o), { limit: 2 })) {
      await client.describeNamespace([...namespace, child])
      await visit([...namespace, child])
    }
  }
  await visit([])
  return counts
}

describe('never write on read', () => {
  let base: string
  beforeAll(async () => {
    base = await makeTempDir()
  })
  afterAll(() => removeDir(base))

  it('opening, listing, describing and paging the demo catalog changes no file', async () => {
    const root = join(base, 'demo')
    await ensureDemoCatalog(root)
    const before = await snapshotTree(root)
    const client = await DirNamespaceClient.open(root)
    const counts = await browseEverything(client)
    await client.close()
    // Open a second time too: connect is where upstream wrote.
    await (await DirNamespaceClient.open(root)).close()
    expect(counts.namespaces).toBeGreaterThanOrEqual(6)
    expect(counts.tables).toBe(Object.keys(DEMO_TABLES).length)
    expect(diffSnapshots(before, await snapshotTree(root))).toEqual([])
  })

  it('a catalog built over many versions (appends, drops) is not touched either', async () => {
    const root = join(base, 'busy')
    await buildCatalog(root, {
      namespaces: [['a'], ['a', 'b'], ['c']],
      tables: [
        { namespace: ['a'], name: 't1', rows: 40 },
        { namespace: ['a', 'b'], name: 't2', rows: 25 },
        { namespace: ['c'], name: 't3', rows: 5 },
        { namespace: ['c'], name: 'gone', rows: 5 },
      ],
    })
    const writer = await DirNamespaceClient.open(root)
    await writer.dropTable({ namespace: ['c'], name: 'gone' })
    for (let i = 0; i < 3; i++) await writer.createNamespace(['c', `n${i}`])
    await writer.close()
    const before = await snapshotTree(root)
    const client = await DirNamespaceClient.open(root)
    const counts = await browseEverything(client)
    await client.close()
    expect(counts).toMatchObject({ namespaces: 7, tables: 3 })
    expect(diffSnapshots(before, await snapshotTree(root))).toEqual([])
  })

  it('the snapshot does notice a change (the check can fail)', async () => {
    const root = join(base, 'control')
    await buildCatalog(root, { namespaces: [['a']], tables: [{ namespace: ['a'], name: 't', rows: 3 }] })
    const before = await snapshotTree(root)
    const client = await DirNamespaceClient.open(root)
    await client.createNamespace(['b'])
    await client.close()
    expect(diffSnapshots(before, await snapshotTree(root)).length).toBeGreaterThan(0)
  })
})
