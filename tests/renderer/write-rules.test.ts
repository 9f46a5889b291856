import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectionInfo, JobInfo, TableRef } from '../../src/contract'
import { METHOD_NAMES, READ_METHODS, WRITE_METHODS } from '../../src/contract/methods'
import { staleAfter } from '../../src/renderer/queries/invalidate'
import { keys } from '../../src/renderer/queries/keys'

const orders: TableRef = { connectionId: 'c1', namespace: ['shop'], name: 'orders' }
const nested: TableRef = { connectionId: 'c1', namespace: ['shop', 'archive'], name: 'orders' }

let client: QueryClient
afterEach(() => client?.clear())

/** A cache holding each key, read once; `state` says how often it ran and whether it is stale or gone. */
async function cacheWith(queryKeys: readonly (readonly unknown[])[]) {
  client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity, gcTime: Infinity } } })
  const runs = new Map<string, number>()
  for (const queryKey of queryKeys) {
    const id = JSON.stringify(queryKey)
    await client.fetchQuery({ queryKey, queryFn: async () => runs.set(id, (runs.get(id) ?? 0) + 1).get(id) })
  }
  return (queryKey: readonly unknown[]) => {
    const s = client.getQueryState(queryKey)
    return s === undefined ? 'gone' : s.data === undefined ? 'reset' : s.isInvalidated ? 'stale' : 'fresh'
  }
}

const tableQueries = (ref: TableRef) => [[...keys.table(ref), 'describe', null], [...keys.table(ref), 'page0', {}], [...keys.table(ref), 'versions'], [...keys.table(ref), 'indexes'], [...keys.table(ref), 'stats']]

describe('every write has one staleness rule', () => {
  it('the contract splits its methods into writes and reads, each method once', () => {
    const all = new Set<string>(METHOD_NAMES)
    const writes = new Set<string>(WRITE_METHODS)
    const reads = new Set<string>(READ_METHODS)
    expect([...all].filter((m) => !writes.has(m) && !reads.has(m))).toEqual([])
    expect([...writes].filter((m) => reads.has(m))).toEqual([])
    expect(writes.size + reads.size).toBe(all.size)
  })

  it('staleAfter names a rule for every write method and for nothing else', () => {
    expect(Object.keys(staleAfter).sort()).toEqual([...WRITE_METHODS].sort())
    for (const method of WRITE_METHODS) expect(typeof staleAfter[method], method).toBe('function')
  })
})

describe('what the rules make stale', () => {
  it('a rename into another namespace lists both namespaces again and forgets the old table, nothing nested', async () => {
    const state = await cacheWith([keys.listing('c1', ['shop']), keys.listing('c1', ['books']), keys.listing('c1', []), ...tableQueries(orders), ...tableQueries(nested)])
    await staleAfter['tables/rename'](client, { ...orders, namespace: ['shop'], newName: 'sales', newNamespace: ['books'] }, null)
    expect(state(keys.listing('c1', ['shop']))).toBe('fresh') // listed again at once (refetchType all)
    expect(client.getQueryState(keys.listing('c1', ['books']))?.dataUpdateCount).toBe(2)
    expect(client.getQueryState(keys.listing('c1', []))?.dataUpdateCount).toBe(1)
    for (const key of tableQueries(orders)) expect(state(key)).toBe('gone')
    for (const key of tableQueries(nested)) expect(state(key)).toBe('fresh')
  })

  it('a namespace created or dropped lists its parent again, not itself', async () => {
    await cacheWith([keys.listing('c1', ['shop']), keys.listing('c1', ['shop', 'archive'])])
    await staleAfter['namespaces/drop'](client, { connectionId: 'c1', namespace: ['shop', 'archive'] }, null)
    expect(client.getQueryState(keys.listing('c1', ['shop']))?.dataUpdateCount).toBe(2)
    expect(client.getQueryState(keys.listing('c1', ['shop', 'archive']))?.dataUpdateCount).toBe(1)
  })

  it('a tag changes only the versions list; a dropped index only the indexes list', async () => {
    const state = await cacheWith(tableQueries(orders))
    await staleAfter['tags/create'](client, { ...orders, namespace: ['shop'], tag: 'v1', version: 1 }, null)
    expect(tableQueries(orders).map(state)).toEqual(['fresh', 'fresh', 'stale', 'fresh', 'fresh'])
    await staleAfter['indexes/drop'](client, { ...orders, namespace: ['shop'], index: 'id_idx' }, null)
    expect(tableQueries(orders).map(state)).toEqual(['fresh', 'fresh', 'stale', 'stale', 'fresh'])
  })

  it('a restore, an optimize or a schema change drops what was read of the table (the view shows “Opening…”)', async () => {
    for (const write of [
      () => staleAfter['versions/restore'](client, { ...orders, namespace: ['shop'], version: 1 }, { version: 2, jobs: [] }),
      () => staleAfter['columns/drop'](client, { ...orders, namespace: ['shop'], columns: ['x'] }, { version: 2 }),
    ]) {
      const state = await cacheWith([...tableQueries(orders), ...tableQueries(nested)])
      await write()
      for (const key of tableQueries(orders)) expect(state(key)).toBe('reset')
      for (const key of tableQueries(nested)) expect(state(key)).toBe('fresh')
    }
  })

  it('an opened catalog joins the open connections and the recent list is read again; a closed one leaves', async () => {
    const state = await cacheWith([keys.recents, keys.saved])
    const opened = { id: 'c9', kind: 'dir', label: 'demo', location: '/tmp/demo' } as ConnectionInfo
    await staleAfter['connections/openDirectory'](client, { path: '/tmp/demo' }, opened)
    expect(client.getQueryData(keys.connections)).toEqual([opened])
    expect(state(keys.recents)).toBe('stale')
    expect(state(keys.saved)).toBe('fresh')
    await staleAfter['connections/close'](client, { connectionId: 'c9' }, null)
    expect(client.getQueryData(keys.connections)).toEqual([])
  })

  it('a started job joins the job list; an event about it that came first wins', async () => {
    await cacheWith([])
    const queued = { id: 'j1', kind: 'export', state: 'queued' } as unknown as JobInfo
    const done = { ...queued, state: 'done' } as JobInfo
    client.setQueryData(keys.jobs, [done])
    staleAfter['export/start'](client, {} as never, queued as never)
    expect(client.getQueryData(keys.jobs)).toEqual([done])
    staleAfter['profile/start'](client, {} as never, { ...queued, id: 'j2' } as never)
    expect((client.getQueryData(keys.jobs) as JobInfo[]).map((j) => j.id)).toEqual(['j1', 'j2'])
  })
})
