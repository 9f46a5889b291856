import { mkdtemp, readdir, rm, writeFile, utimes } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FileSideCache, MemorySideCache } from '../../src/core/sideCache'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lcb-side-cache-'))
  dirs.push(dir)
  return dir
}

describe('side cache', () => {
  it('keeps an entry per key across instances, and misses on any other key', async () => {
    const dir = await tempDir()
    await new FileSideCache(dir).write('profile', ['/cat', ['a'], 't', 3, 1700], new Uint8Array([1, 2, 3]))
    const again = new FileSideCache(dir)
    expect(Array.from((await again.read('profile', ['/cat', ['a'], 't', 3, 1700]))!)).toEqual([1, 2, 3])
    expect(await again.read('profile', ['/cat', ['a'], 't', 3, 1701])).toBeNull()
    expect(await again.read('map', ['/cat', ['a'], 't', 3, 1700])).toBeNull()
  })

  it('drops the least recently used entries past its budget, and stale temp files of dead writers', async () => {
    const dir = await tempDir()
    const cache = new FileSideCache(dir, 250)
    await cache.write('profile', ['a'], new Uint8Array(100))
    await cache.write('profile', ['b'], new Uint8Array(100))
    // Make "a" the older entry, then use it: now "b" is the least recently used.
    const old = new Date(Date.now() - 10_000)
    for (const name of await readdir(join(dir, 'profile'))) await utimes(join(dir, 'profile', name), old, old)
    expect(await cache.read('profile', ['a'])).not.toBeNull()
    const stale = join(dir, 'profile', 'x.123.dead.tmp')
    await writeFile(stale, 'half')
    await utimes(stale, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000))
    await cache.write('profile', ['c'], new Uint8Array(100))
    expect(await cache.read('profile', ['a'])).not.toBeNull()
    expect(await cache.read('profile', ['b'])).toBeNull()
    expect(await cache.read('profile', ['c'])).not.toBeNull()
    expect((await readdir(join(dir, 'profile'))).some((n) => n.endsWith('.tmp'))).toBe(false)
  })

  it('reads only the head of an entry when asked (all of a shorter one), on disk and in memory', async () => {
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => i % 251)
    for (const cache of [new FileSideCache(await tempDir()), new MemorySideCache()]) {
      await cache.write('map', ['a'], bytes)
      expect(Array.from((await cache.read('map', ['a'], { head: 10 }))!)).toEqual(Array.from(bytes.subarray(0, 10)))
      expect((await cache.read('map', ['a'], { head: 4096 }))!.length).toBe(1000)
      expect(await cache.read('map', ['b'], { head: 10 })).toBeNull()
    }
  })

  it('refuses a kind that could name a path', async () => {
    const cache = new FileSideCache(await tempDir())
    await expect(cache.write('../x', ['a'], new Uint8Array(1))).rejects.toThrow(/bad kind/)
    await expect(new MemorySideCache().read('a/b', ['a'])).rejects.toThrow(/bad kind/)
  })
})
