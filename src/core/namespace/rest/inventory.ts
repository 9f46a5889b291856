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

/** The walk in one line, e.g. "Counted 30 tables in 15 namespaces (3 at the top level; every namespace)". */
export function describeInventory(inventory: CatalogInventory): string {
  const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`
  if (inventory.namespacesWalked === 0) {
    if (inventory.stoppedBy) return `Could not list the namespaces: ${inventory.stoppedBy}`
    return 'No namespaces: every table is at the root'
  }
  const counted = `Counted ${plural(inventory.tablesInNamespaces, 'table', 'tables')} in ${plural(inventory.namespacesWalked, 'namespace', 'namespaces')} (${inventory.rootNamespaces.toLocaleString('en-US')} at the top level`
  if (inventory.complete) return `${counted}; every namespace)`
  if (inventory.stoppedBy) return `${counted}) before an error stopped the count: ${inventory.stoppedBy}`
  return `${counted}; stopped at ${inventory.limit}, more remain)`
}
