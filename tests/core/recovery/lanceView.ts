import { readdir } from 'node:fs/promises'
import { connectNamespace } from '@lancedb/lancedb'
import { CatalogManifest } from '../../../src/core/namespace/dir/manifest'

/**
 * What lancedb itself lists in a directory catalog — every namespace (recursively) and every table, as
 * `ns/…/name` paths — read through @lancedb/lancedb directly, not through our client (which hides staging
 * tables). After recovery it must hold complete tables only: nothing named `.lcb-…`.
 */
export async function lanceView(root: string): Promise<{ namespaces: string[]; tables: string[] }> {
  const db = await connectNamespace('dir', { root })
  const namespaces: string[] = []
  const tables: string[] = []
  try {
    const walk = async (path: string[]): Promise<void> => {
      for (const name of await db.tableNames(path, { limit: 10_000 })) tables.push([...path, name].join('/'))
      for (const child of (await db.listNamespaces(path, { limit: 10_000 })).namespaces) {
        namespaces.push([...path, child].join('/'))
        await walk([...path, child])
      }
    }
    await walk([])
  } finally {
    db.close()
  }
  return { namespaces, tables }
}

/** Paths in lancedb's view that only a writer in flight should ever show (staging tables and the like). */
export function stagedIn(view: { namespaces: string[]; tables: string[] }): string[] {
  return [...view.namespaces, ...view.tables].filter((path) => path.split('/').some((part) => part.startsWith('.lcb-')))
}

/** Directories at the root (where table data lives) that no reader lists: not `__manifest`, not a root table, no manifest row's location. */
export async function unlistedData(root: string): Promise<string[]> {
  const manifest = new CatalogManifest(root)
  try {
    const locations = new Set((await manifest.query(`object_type = 'table'`)).map((row) => row.location))
    const dirs = (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
    // Our bookkeeping, not table data: the append journal and the server's name claims.
    const bookkeeping = new Set(['__manifest', '.lcb-journal', '.lcb-claims'])
    return dirs.filter((name) => !bookkeeping.has(name) && !name.endsWith('.lance') && !locations.has(name))
  } finally {
    await manifest.close()
  }
}
