import { execFileSync } from 'node:child_process'
import { appendFile, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, truncate, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FileSideCache, MemorySideCache, SIDE_CACHE_HEAD_CHECKED_BYTES } from '../../src/core/sideCache'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lcb-side-cache-'))
  dirs.push(dir)
  return dir
}

/** The one file a kind holds (entries are named by a hash of their key). */
async function onlyEntry(dir: string, kind: string): Promise<string> {
  const names = await readdir(join(dir, kind))
  expect(names).toHaveLength(1)
  return join(dir, kind, names[0]!)
}

const bytes = (n: number, seed = 0) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) % 251)

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
    // Each kept file is its 100 bytes and a header naming its key: the budget holds two of them, not three.
    await new FileSideCache(dir).write('sizing', ['a'], new Uint8Array(100))
    const fileBytes = (await stat(await onlyEntry(dir, 'sizing'))).size
    const cache = new FileSideCache(dir, Math.floor(fileBytes * 2.5))
    await cache.write('profile', ['a'], new Uint8Array(100))
    await cache.write('profile', ['b'], new Uint8Array(100))
    // Make "a" the older entry, then use it: now "b" is the least recently used.
    const old = new Date(Date.now() - 10_000)
    for (const name of await readdir(join(dir, 'profile'))) await utimes(join(dir, 'profile', name), old, old)
    expect(await cache.read('profile', ['a'])).not.toBeNull()
    const stale = join(dir, 'profile', `${'0'.repeat(40)}.123.deadbeef.tmp`)
    await writeFile(stale, 'half')
    await utimes(stale, new Date(Date.now() - 120_000), new Date(Date.now() - 120_000))
    // A file the cache did not make is never trimmed (a kind folder is ours, but nothing else in it is).
    await writeFile(join(dir, 'profile', 'notes.txt'), 'mine')
    await utimes(join(dir, 'profile', 'notes.txt'), old, old)
    await cache.write('profile', ['c'], new Uint8Array(100))
    expect(await cache.read('profile', ['a'])).not.toBeNull()
    expect(await cache.read('profile', ['b'])).toBeNull()
    expect(await cache.read('profile', ['c'])).not.toBeNull()
    expect((await readdir(join(dir, 'profile'))).some((n) => n.endsWith('.tmp'))).toBe(false)
    expect(await readFile(join(dir, 'profile', 'notes.txt'), 'utf8')).toBe('mine')
  })

  it('reads only the head of an entry when asked (all of a shorter one), on disk and in memory', async () => {
    const data = bytes(1000)
    for (const cache of [new FileSideCache(await tempDir()), new MemorySideCache()]) {
      await cache.write('map', ['a'], data)
      expect(Array.from((await cache.read('map', ['a'], { head: 10 }))!)).toEqual(Array.from(data.subarray(0, 10)))
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

/**
 * A kept file is not trusted. Each way of spoiling it is a miss (never the bytes), the spoiled thing is gone after
 * the read, and a write (the caller's recomputed result) replaces it and is read back whole.
 */
describe('side cache: a spoiled kept file is a miss, and is replaced', () => {
  const key = ['/cat', ['ns'], 't', 4, 'stamp-4', null]
  // Longer than the digested head, so a head read and a full read check different things.
  const data = bytes(SIDE_CACHE_HEAD_CHECKED_BYTES + 5000)
  const fresh = bytes(3000, 99)

  async function kept(): Promise<{ dir: string; cache: FileSideCache; path: string }> {
    const dir = await tempDir()
    const cache = new FileSideCache(dir)
    await cache.write('map', key, data)
    const path = await onlyEntry(dir, 'map')
    expect(Buffer.from((await cache.read('map', key))!).equals(Buffer.from(data))).toBe(true)
    return { dir, cache, path }
  }

  async function missedThenReplaced(cache: FileSideCache, path: string, head?: number): Promise<void> {
    expect(await cache.read('map', key, head === undefined ? {} : { head })).toBeNull()
    // Removed by the read: the next head read misses too, so the result is made again.
    await expect(lstat(path)).rejects.toMatchObject({ code: 'ENOENT' })
    await cache.write('map', key, fresh)
    expect(Array.from((await cache.read('map', key))!)).toEqual(Array.from(fresh))
  }

  it("another key's entry moved onto this key's name", async () => {
    const dir = await tempDir()
    const cache = new FileSideCache(dir)
    await cache.write('profile', ['/cat', [], 'other', 1, 'x'], bytes(100))
    const other = await onlyEntry(dir, 'profile')
    await cache.write('profile', key, bytes(100, 1))
    const mine = (await readdir(join(dir, 'profile'))).map((n) => join(dir, 'profile', n)).find((p) => p !== other)!
    await rename(other, mine)
    expect(await cache.read('profile', key)).toBeNull()
    expect(await cache.read('profile', key, { head: 10 })).toBeNull()
    // Another kind's entry under this kind's folder is refused too.
    await cache.write('map', key, bytes(100))
    await rename(await onlyEntry(dir, 'map'), mine)
    expect(await cache.read('profile', key)).toBeNull()
  })

  it.each([
    ['a byte of the payload edited (past the head: a full read finds it)', 'tail', undefined],
    ['a byte of the payload edited (in the head: a head read finds it)', 'head', 100],
    ['a byte of the header edited', 'header', 100],
    ['a byte of the header edited (full read)', 'header', undefined],
  ] as const)('%s', async (_what, where, head) => {
    const { cache, path } = await kept()
    const file = await readFile(path)
    const headerEnd = 12 + file.readUInt32LE(8)
    const at = where === 'tail' ? file.length - 10 : where === 'head' ? headerEnd + 32 + 50 : headerEnd - 30
    file[at]! ^= 0x01
    await writeFile(path, file)
    await missedThenReplaced(cache, path, head)
  })

  it('a hand-edited number in the header (the declared length) is a miss', async () => {
    const { cache, path } = await kept()
    const file = await readFile(path)
    const text = file.toString('latin1').replace(`"length":${data.length}`, `"length":${data.length - 1}`)
    await writeFile(path, Buffer.from(text.slice(0, -1), 'latin1'))
    await missedThenReplaced(cache, path)
  })

  it.each([
    ['cut short (full read)', undefined],
    ['cut short (head read)', 100],
  ])('%s', async (_what, head) => {
    const { cache, path } = await kept()
    await truncate(path, (await stat(path)).size - 1)
    await missedThenReplaced(cache, path, head)
  })

  it.each([
    ['bytes appended (full read)', undefined],
    ['bytes appended (head read)', 100],
  ])('%s', async (_what, head) => {
    const { cache, path } = await kept()
    await appendFile(path, Buffer.alloc(10))
    await missedThenReplaced(cache, path, head)
  })

  it('an entry of the earlier format (the payload alone), and an empty file', async () => {
    const { cache, path } = await kept()
    await writeFile(path, data)
    await missedThenReplaced(cache, path)
    await writeFile(path, '')
    await missedThenReplaced(cache, path, 10)
  })

  it('a header declaring more than the budget is refused before the payload is read', async () => {
    const dir = await tempDir()
    await new FileSideCache(dir).write('map', key, bytes(5000))
    const path = await onlyEntry(dir, 'map')
    expect(await new FileSideCache(dir, 4000).read('map', key)).toBeNull()
    await expect(lstat(path)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('a FIFO in its place does not block the read (nor the write that replaces it)', { timeout: 10_000 }, async () => {
    const { cache, path } = await kept()
    await rm(path)
    execFileSync('mkfifo', [path])
    expect((await lstat(path)).isFIFO()).toBe(true)
    await missedThenReplaced(cache, path)
    execFileSync('mkfifo', [`${path}x`]) // not an entry name: left alone by reads and trims
    await rm(path)
    execFileSync('mkfifo', [path])
    await missedThenReplaced(cache, path, 100)
  })

  it('a symlink to /dev/zero in its place is not followed', { timeout: 10_000 }, async () => {
    const { cache, path } = await kept()
    await rm(path)
    await symlink('/dev/zero', path)
    await missedThenReplaced(cache, path)
    await rm(path)
    await symlink('/dev/zero', path)
    await missedThenReplaced(cache, path, 100)
  })

  it('a symlink to a valid entry outside the folder is not followed, and what it points to is kept', async () => {
    const { cache, path } = await kept()
    const outside = join(await tempDir(), 'entry')
    await rename(path, outside)
    await symlink(outside, path)
    await missedThenReplaced(cache, path)
    expect((await stat(outside)).size).toBeGreaterThan(data.length)
  })

  it('a folder in its place (with a symlink inside: removed, not followed)', async () => {
    const { cache, path } = await kept()
    const outside = await tempDir()
    await writeFile(join(outside, 'precious'), 'keep me')
    await rm(path)
    await mkdir(path)
    await symlink(outside, join(path, 'link'))
    await missedThenReplaced(cache, path)
    expect(await readFile(join(outside, 'precious'), 'utf8')).toBe('keep me')
  })

  it("a kind folder that is a symlink holds nothing; a write replaces the link, never writing through it", async () => {
    const dir = await tempDir()
    const elsewhere = await tempDir()
    const cache = new FileSideCache(elsewhere)
    await cache.write('map', key, data)
    const [name] = await readdir(join(elsewhere, 'map'))
    await writeFile(join(elsewhere, 'map', 'precious'), 'keep me')
    await symlink(join(elsewhere, 'map'), join(dir, 'map'))
    const linked = new FileSideCache(dir, 1) // a budget of one byte: a trim through the link would empty it
    expect(await linked.read('map', key)).toBeNull()
    await linked.write('map', key, fresh)
    expect((await lstat(join(dir, 'map'))).isDirectory()).toBe(true)
    expect((await readdir(join(elsewhere, 'map'))).sort()).toEqual([name, 'precious'].sort())
  })
})
