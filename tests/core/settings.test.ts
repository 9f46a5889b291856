import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SettingsFile } from '../../src/core/settings'
import { bundleScript } from '../helpers/bundle'

/** Run the settings writer and SIGKILL it soon after it has saved `after` times; resolves with the last number it printed. */
async function killWriterAfter(path: string, after: number): Promise<number> {
  const writer = await bundleScript(join(__dirname, '..', 'fixtures', 'settings', 'writer.ts'))
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, path], { stdio: ['ignore', 'pipe', 'pipe'] })
    let last = 0
    let killing = false
    let stderr = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (text: string) => {
      for (const m of text.matchAll(/^saved (\d+)$/gm)) last = Number(m[1])
      // A moment later than the line: the kill lands anywhere in the next writes, not only where it prints.
      if (last >= after && !killing) {
        killing = true
        setTimeout(() => child.kill('SIGKILL'), Math.random() * 10)
      }
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve(last) : reject(new Error(`the writer ended without being killed: ${stderr}`))))
  })
}

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

  it('a write that fails does not stop the ones after it (the writes are queued, not chained to a failure)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lcb-settings-'))
    const path = join(dir, 'settings.json')
    const store = new SettingsFile(path)
    // The temp file's name taken by a folder: this write fails, as a full disk would fail it.
    const blocker = `${path}.${process.pid}.tmp`
    await mkdir(blocker)
    await expect(store.add('/a')).rejects.toThrow()
    await rm(blocker, { recursive: true })
    await store.add('/b')
    expect(JSON.parse(await readFile(path, 'utf8')).recents.map((r: { path: string }) => r.path)).toEqual(['/b', '/a'])
  })

  it('killed (SIGKILL) in the middle of saving the tabs, the file is whole: the last state saved or a newer one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lcb-settings-kill-'))
    const path = join(dir, 'settings.json')
    for (const after of [3, 9, 20, 33, 50, 70]) {
      const last = await killWriterAfter(path, after)
      expect(last).toBeGreaterThanOrEqual(after)
      const saved = JSON.parse(await readFile(path, 'utf8'))
      const tabs = saved.tabs['/catalog'].tabs as { name: string }[]
      // Each write is a whole state n: every tab named by the same n, the recents led by n or n - 1 (the write in between).
      const n = Number(/^t(\d+)_/.exec(tabs[0]!.name)![1])
      expect(n).toBeGreaterThanOrEqual(last)
      expect(tabs).toHaveLength(1 + (n % 40))
      expect(tabs.every((t, i) => t.name === `t${n}_${i}`)).toBe(true)
      expect([`/recent/${n}`, `/recent/${n - 1}`]).toContain(saved.recents[0].path)
      // The app reads it back as the tabs it saved.
      expect(((await new SettingsFile(path).tabsOf('/catalog')) as { tabs: unknown[] }).tabs).toHaveLength(tabs.length)
    }
    // What a kill leaves besides the file is at most the temp files of the killed processes, never read.
    expect((await readdir(dir)).filter((f) => f !== 'settings.json').every((f) => f.endsWith('.tmp'))).toBe(true)
  })
})
