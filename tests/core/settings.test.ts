import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SettingsFile } from '../../src/core/settings'

describe('SettingsFile', () => {
  it('remembers recent directories, newest first, without duplicates, across instances', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'lcb-settings-')), 'settings.json')
    const first = new SettingsFile(path)
    await first.add('/data/a')
    await first.add('/data/b')
    await first.add('/data/a')
    const reread = new SettingsFile(path)
    expect((await reread.list()).map((r) => r.path)).toEqual(['/data/a', '/data/b'])
  })

  it('keeps at most ten', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'lcb-settings-')), 'settings.json')
    const store = new SettingsFile(path)
    for (let i = 0; i < 15; i++) await store.add(`/d/${i}`)
    const list = await new SettingsFile(path).list()
    expect(list).toHaveLength(10)
    expect(list[0]!.path).toBe('/d/14')
  })

  it('treats a corrupt file as empty and overwrites it whole', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'lcb-settings-')), 'settings.json')
    await writeFile(path, '{"recents": [tru')
    const store = new SettingsFile(path)
    expect(await store.list()).toEqual([])
    await store.add('/x')
    expect(JSON.parse(await readFile(path, 'utf8')).recents[0].path).toBe('/x')
  })
})
