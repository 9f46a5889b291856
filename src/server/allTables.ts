import type { NamespacePath, TableId } from '../core/namespace'
import type { Catalog } from './catalogs'

/** Every table id of the catalog: the root's tables, then each namespace's, breadth first (all pages). */
export async function allTables(catalog: Catalog, signal: AbortSignal): Promise<TableId[]> {
  const out: TableId[] = []
  const queue: NamespacePath[] = [[]]
  const all = async (list: (pageToken: string | undefined) => Promise<{ items: string[]; pageToken?: string }>) => {
    const names: string[] = []
    for (let token: string | undefined; ; ) {
      const p = await list(token)
      names.push(...p.items)
      if (!p.pageToken || p.items.length === 0) return names
      token = p.pageToken
    }
  }
  while (queue.length > 0) {
    const ns = queue.shift()!
    for (const name of await all((pageToken) => catalog.client.listTables(ns, { pageToken, signal }))) out.push({ namespace: ns, name })
    for (const child of await all((pageToken) => catalog.client.listNamespaces(ns, { pageToken, signal }))) queue.push([...ns, child])
  }
  return out
}
