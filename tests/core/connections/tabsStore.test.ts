import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MAX_SAVED_TABS } from '../../../src/contract'
import { readRememberedTabs } from '../../../src/core/connections/tabsStore'
import { CatalogService } from '../../../src/core/service'
import { SettingsFile } from '../../../src/core/settings'
import { buildCatalog } from '../../helpers/catalog'

describe('remembered tabs', () => {
  it('are kept per catalog in the settings file, across instances, beside what else the file holds', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lcb-tabs-'))
    const path = join(dir, 'settings.json')
    const first = new SettingsFile(path)
    await first.add('/data/a')
    await first.setTabs('dir:/data/a', { tabs: [{ kind: 'table', namespace: ['shop'], name: 'orders', version: 2, filter: 'id > 3' }], active: 0 })
    const reread = new SettingsFile(path)
    expect(readRememberedTabs(await reread.tabsOf('dir:/data/a'))).toEqual({ tabs: [{ kind: 'table', namespace: ['shop'], name: 'orders', version: 2, filter: 'id > 3' }], active: 0, skipped: 0 })
    expect(await reread.tabsOf('dir:/data/b')).toBeUndefined()
    expect((await reread.list()).map((r) => r.path)).toEqual(['/data/a'])
  })

  it('read leniently: a tab that no longer parses is skipped and counted; the others and the rest of the settings stay', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lcb-tabs-'))
    const path = join(dir, 'settings.json')
    // A hand-edited file: one tab with a name the component rule refuses, one from a future kind of entry, one fine.
    const tabs = [{ kind: 'table', namespace: [], name: '../etc' }, { kind: 7 }, { kind: 'table', namespace: ['a'], name: 'b' }]
    await writeFile(path, JSON.stringify({ recents: [{ path: '/x', openedAt: 1 }], tabs: { 'dir:/x': { tabs, active: 9 }, 'dir:/y': 'garbage' } }))
    const store = new SettingsFile(path)
    expect(readRememberedTabs(await store.tabsOf('dir:/x'))).toEqual({ tabs: [{ kind: 'table', namespace: ['a'], name: 'b' }], skipped: 2 })
    expect(readRememberedTabs(await store.tabsOf('dir:/y'))).toEqual({ tabs: [], skipped: 1 })
    expect((await store.list()).map((r) => r.path)).toEqual(['/x'])
    // Writing another catalog's tabs keeps the unreadable entry as it was (the user's file, not ours to clean).
    await store.setTabs('dir:/z', { tabs: [] })
    expect(JSON.parse(await readFile(path, 'utf8')).tabs['dir:/y']).toBe('garbage')
  })

  it('read field by field: a view part that no longer parses is left out and counted, the tab still opens', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lcb-tabs-'))
    const path = join(dir, 'settings.json')
    const place = { first: 120, cell: { row: 131, column: 'score' }, panels: ['summary', 'map'], dockTabs: { right: 'map' }, gallery: true }
    // An older version wrote the scroll as an object and the panels as one string; a hand edit broke a cell; a newer
    // version added a field this one does not know (ignored, not a failure).
    const tabs = [
      { kind: 'table', namespace: ['a'], name: 'whole', filter: 'id > 1', ...place },
      { kind: 'table', namespace: ['a'], name: 'old', filter: 'id > 2', first: { top: 3 }, panels: 'summary', gallery: true },
      { kind: 'table', namespace: ['a'], name: 'edited', cell: { row: -1, column: 'x' }, dockTabs: { right: 'Map!' }, first: 7, splitAt: 40 },
      { kind: 'table', namespace: ['a'], name: '..', ...place },
    ]
    await writeFile(path, JSON.stringify({ tabs: { 'dir:/x': { tabs, active: 1 } } }))
    const read = readRememberedTabs(await new SettingsFile(path).tabsOf('dir:/x'))
    expect(read).toEqual({
      tabs: [
        { kind: 'table', namespace: ['a'], name: 'whole', filter: 'id > 1', ...place },
        { kind: 'table', namespace: ['a'], name: 'old', filter: 'id > 2', gallery: true },
        { kind: 'table', namespace: ['a'], name: 'edited', first: 7 },
      ],
      active: 1,
      skipped: 1,
      partial: 2,
    })
    // More than are ever saved: the first ones open, the rest are counted.
    const many = Array.from({ length: MAX_SAVED_TABS + 3 }, (_, i) => ({ kind: 'table', namespace: [], name: `t${i}` }))
    expect(readRememberedTabs({ tabs: many })).toMatchObject({ skipped: 3 })
    expect(readRememberedTabs({ tabs: many }).tabs).toHaveLength(MAX_SAVED_TABS)
  })

  it('go through the contract keyed by the open catalog, and a closed connection is refused in words', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lcb-tabs-'))
    const root = join(dir, 'catalog')
    await buildCatalog(root, { namespaces: [['shop']], tables: [{ namespace: ['shop'], name: 'orders', rows: 3 }] })
    const settings = new SettingsFile(join(dir, 'settings.json'))
    const service = new CatalogService({ host: 'harness', version: 't', recents: settings })
    try {
      const opened = await service.dispatch('connections/openDirectory', { path: root })
      if (!opened.ok) throw new Error(opened.error.message)
      const connectionId = (opened.value as { id: string }).id
      expect(await service.dispatch('workbench/tabs', { connectionId })).toEqual({ ok: true, value: { tabs: [], skipped: 0 } })
      const saved = { tabs: [{ kind: 'table', namespace: ['shop'], name: 'orders', sort: [{ column: 'id', direction: 'desc' }], first: 40, cell: { row: 45, column: 'id' }, panels: ['summary'], dockTabs: { right: 'summary' }, gallery: true }], active: 0 }
      expect(await service.dispatch('workbench/saveTabs', { connectionId, saved })).toEqual({ ok: true, value: null })
      expect(await service.dispatch('workbench/tabs', { connectionId })).toEqual({ ok: true, value: { ...saved, skipped: 0 } })
      expect(await settings.tabsOf(`dir:${root}`)).toEqual(saved)
      const bad = await service.dispatch('workbench/saveTabs', { connectionId, saved: { tabs: [{ kind: 'table', namespace: [], name: '..' }] } })
      expect(bad.ok ? null : bad.error.code).toBe('invalid_input')
      // Written strictly (only a hand edit or an older version makes a part unreadable).
      const badPlace = await service.dispatch('workbench/saveTabs', { connectionId, saved: { tabs: [{ kind: 'table', namespace: [], name: 'orders', first: -1 }] } })
      expect(badPlace.ok ? null : badPlace.error.code).toBe('invalid_input')
      const closed = await service.dispatch('workbench/tabs', { connectionId: 'c-none' })
      expect(closed.ok ? null : closed.error).toMatchObject({ code: 'not_found', message: 'This connection is closed' })
    } finally {
      await service.closeAll()
    }
  })
})
