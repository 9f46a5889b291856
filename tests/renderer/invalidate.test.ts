import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it } from 'vitest'
import type { TableRef } from '../../src/contract'
import { nextSelection, type Selection } from '../../src/renderer/features/navigation/selection'
import { namespaceKey, tableKey } from '../../src/renderer/features/tree/treeModel'
import { invalidate } from '../../src/renderer/queries/invalidate'
import { keys } from '../../src/renderer/queries/keys'

const orders: TableRef = { connectionId: 'c1', namespace: ['shop'], name: 'orders' }
// Same name one namespace deeper, and in another connection: a write to `orders` must leave them alone.
const nested: TableRef = { connectionId: 'c1', namespace: ['shop', 'archive'], name: 'orders' }
const elsewhere: TableRef = { connectionId: 'c2', namespace: ['shop'], name: 'orders' }

let client: QueryClient
afterEach(() => client.clear())

/** A cache holding, for each key, a read that counts how often it ran (each is read once here). */
async function cacheWith(queryKeys: readonly (readonly unknown[])[]) {
  client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, gcTime: Infinity } } })
  const runs = new Map<string, number>()
  for (const queryKey of queryKeys) {
    const id = JSON.stringify(queryKey)
    await client.fetchQuery({ queryKey, queryFn: async () => runs.set(id, (runs.get(id) ?? 0) + 1).get(id) })
  }
  const state = (queryKey: readonly unknown[]) => ({ runs: runs.get(JSON.stringify(queryKey)) ?? 0, stale: client.getQueryState(queryKey)?.isInvalidated ?? false })
  return state
}

const tableQueries = (ref: TableRef) => [
  [...keys.table(ref), 'describe', null],
  [...keys.table(ref), 'describe', 3],
  [...keys.table(ref), 'page0', { version: 4 }],
  [...keys.table(ref), 'count', { version: 4, filter: 'id > 1' }],
  [...keys.table(ref), 'versions'],
]

describe('what a write invalidates', () => {
  it('an import lists its namespace again at once (shown or not) and makes every read of that table stale, nothing else', async () => {
    const shop = keys.listing('c1', ['shop'])
    const root = keys.listing('c1', [])
    const state = await cacheWith([shop, root, keys.listing('c1', ['shop', 'archive']), ...tableQueries(orders), ...tableQueries(nested), ...tableQueries(elsewhere), keys.capabilities('c1')])
    await invalidate.imported(client, orders)
    // Listed again although nothing observes it: the filter and the context menu read collapsed listings too.
    expect(state(shop)).toEqual({ runs: 2, stale: false })
    expect(state(root)).toEqual({ runs: 1, stale: false })
    expect(state(keys.listing('c1', ['shop', 'archive'])).stale).toBe(false)
    for (const key of tableQueries(orders)) expect(state(key).stale).toBe(true)
    for (const key of [...tableQueries(nested), ...tableQueries(elsewhere)]) expect(state(key).stale).toBe(false)
    expect(state(keys.capabilities('c1')).stale).toBe(false)
  })

  it('a table write makes its descriptions (every version), pages, counts and lifecycle lists stale', async () => {
    const state = await cacheWith([...tableQueries(orders), ...tableQueries(nested), keys.listing('c1', ['shop'])])
    await invalidate.table(client, orders)
    for (const key of tableQueries(orders)) expect(state(key).stale).toBe(true)
    for (const key of tableQueries(nested)) expect(state(key).stale).toBe(false)
    expect(state(keys.listing('c1', ['shop'])).stale).toBe(false)
  })

  it('a dropped or renamed table leaves nothing cached about it', async () => {
    await cacheWith([...tableQueries(orders), ...tableQueries(nested)])
    invalidate.tableGone(client, orders)
    for (const key of tableQueries(orders)) expect(client.getQueryState(key)).toBeUndefined()
    for (const key of tableQueries(nested)) expect(client.getQueryState(key)).toBeDefined()
  })

  it('a refusal re-reads that connection’s capabilities only', async () => {
    const state = await cacheWith([keys.capabilities('c1'), keys.capabilities('c2')])
    await invalidate.capabilities(client, 'c1')
    expect(state(keys.capabilities('c1')).runs).toBe(2)
    expect(state(keys.capabilities('c2'))).toEqual({ runs: 1, stale: false })
  })
})

describe('where the selection goes after a write from the tree', () => {
  const selected: Selection = { kind: 'table', key: tableKey('c1', ['shop'], 'orders'), ref: orders }
  const target = { connectionId: 'c1', namespace: ['shop'], name: 'orders' }

  it('follows a renamed table, into another namespace too', () => {
    expect(nextSelection(selected, { action: 'rename-table', target, result: { name: 'sales', namespace: ['books'] } })).toEqual({
      kind: 'table',
      key: tableKey('c1', ['books'], 'sales'),
      ref: { connectionId: 'c1', namespace: ['books'], name: 'sales' },
    })
  })

  it('moves off a dropped table to its namespace, and off anything inside a dropped namespace to its parent', () => {
    expect(nextSelection(selected, { action: 'drop-table', target, result: {} })).toEqual({ kind: 'namespace', key: namespaceKey('c1', ['shop']), connectionId: 'c1', namespace: ['shop'] })
    const dropShop = { action: 'drop-namespace', target: { connectionId: 'c1', namespace: ['shop'], name: 'shop' }, result: {} }
    expect(nextSelection(selected, dropShop)).toEqual({ kind: 'namespace', key: namespaceKey('c1', []), connectionId: 'c1', namespace: [] })
  })

  it('keeps a selection the write did not touch', () => {
    const other: Selection = { kind: 'table', key: tableKey('c1', ['books'], 'orders'), ref: { connectionId: 'c1', namespace: ['books'], name: 'orders' } }
    expect(nextSelection(other, { action: 'drop-table', target, result: {} })).toBe(other)
    expect(nextSelection(other, { action: 'drop-namespace', target: { connectionId: 'c1', namespace: ['shop'], name: 'shop' }, result: {} })).toBe(other)
  })

  it('keeps a query view whatever is dropped (its next run says what is gone)', () => {
    const query: Selection = { kind: 'query', key: 'query:c1:1', connectionId: 'c1' }
    expect(nextSelection(query, { action: 'drop-namespace', target: { connectionId: 'c1', namespace: [], name: '' }, result: {} })).toBe(query)
    expect(nextSelection(query, { action: 'drop-table', target, result: {} })).toBe(query)
  })
})
