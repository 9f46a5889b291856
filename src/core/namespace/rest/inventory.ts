import type { CatalogInventory } from '../../../contract/connections'
import { toAppError } from '../../errors'
import { listAll, type NamespaceClient } from '../client'
import type { NamespacePath } from '../path'

export type { CatalogInventory }

/** How many namespaces "Test connection" walks: enough to count a real catalog, bounded for a huge one. */
export const INVENTORY_NAMESPACE_LIMIT = 50
const CONCURRENCY = 4

/**
 * Count what a catalog holds: tables at the root, root namespaces, and (breadth first, at most `limit`
 * namespaces, a few requests at a time) the tables and child namespaces of each namespace reached.
 * A failure stops the walk and is reported in `stoppedBy`; what was counted so far stays.
 */
export async function takeInventory(
  client: NamespaceClient,
  options: { rootTables: number; limit?: number; signal?: AbortSignal },
): Promise<CatalogInventory> {
  const limit = options.limit ?? INVENTORY_NAMESPACE_LIMIT
  const signal = options.signal
  const inventory: CatalogInventory = {
    rootTables: options.rootTables,
    rootNamespaces: 0,
    namespacesFound: 0,
    namespacesWalked: 0,
    tablesInNamespaces: 0,
    complete: false,
    limit,
  }
  const queue: NamespacePath[] = []
  try {
    const roots = await listAll((o) => client.listNamespaces([], { ...o, signal }))
    inventory.rootNamespaces = roots.length
    inventory.namespacesFound = roots.length
    queue.push(...roots.map((name) => [name]))
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < queue.length && next < limit) {
        const namespace = queue[next++]!
        const [tables, children] = await Promise.all([
          listAll((o) => client.listTables(namespace, { ...o, signal })),
          listAll((o) => client.listNamespaces(namespace, { ...o, signal })),
        ])
        inventory.namespacesWalked += 1
        inventory.tablesInNamespaces += tables.length
        inventory.namespacesFound += children.length
        queue.push(...children.map((child) => [...namespace, child]))
      }
    }
    // Workers pick up namespaces that others discover, until the queue or the bound runs out.
    let running: Promise<void>[] = []
    do {
      running = Array.from({ length: Math.min(CONCURRENCY, queue.length - next, limit - next) }, worker)
      await Promise.all(running)
    } while (running.length > 0 && next < queue.length && next < limit)
    inventory.complete = next >= queue.length
  } catch (error) {
    if (signal?.aborted) throw error
    inventory.stoppedBy = toAppError(error).message
  }
  return inventory
}

/** The inventory in one sentence, e.g. "2 tables at the root, 3 namespaces; 12 more tables in 5 namespaces". */
export function describeInventory(inventory: CatalogInventory): string {
  const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
  const head = `${plural(inventory.rootTables, 'table', 'tables')} at the root, ${plural(inventory.rootNamespaces, 'namespace', 'namespaces')}`
  if (inventory.namespacesWalked === 0) return inventory.stoppedBy ? `${head} (could not list the namespaces: ${inventory.stoppedBy})` : head
  const found = `${plural(inventory.tablesInNamespaces, 'table', 'tables')} in ${plural(inventory.namespacesWalked, 'namespace', 'namespaces')}`
  if (inventory.complete) return `${head}; ${found} (every namespace)`
  if (inventory.stoppedBy) return `${head}; ${found} before an error stopped the walk: ${inventory.stoppedBy}`
  return `${head}; ${found} (the first ${inventory.limit} of ${plural(inventory.namespacesFound, 'namespace', 'namespaces')} found so far; there are more)`
}
