import { link, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { randomUUID } from 'node:crypto'
import { dirname, join } from 'node:path'
import type { ClaimStore, StoredClaim } from './store'

/**
 * Claims as files under a local catalog root. A claim is written whole to a private file and then `link`ed to its name,
 * which fails when the name exists (the local `O_EXCL`): a reader never sees a half-written claim. The tag is the
 * file's inode and modification time; renewal touches the time. Removal moves the file aside first (`rename` is
 * atomic) and puts it back if it turns out to be another holder's.
 */
export class FileClaimStore implements ClaimStore {
  constructor(readonly dir: string) {}

  async create(key: string, body: string): Promise<string | null> {
    await mkdir(dirname(this.path(key)), { recursive: true })
    const temp = join(dirname(this.path(key)), `.${randomUUID()}.tmp`)
    await writeFile(temp, body, { flag: 'wx' })
    try {
      await link(temp, this.path(key))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null
      throw error
    } finally {
      await rm(temp, { force: true })
    }
    return (await this.read(key))?.tag ?? null
  }

  async read(key: string): Promise<StoredClaim | null> {
    try {
      const path = this.path(key)
      const [s, body] = await Promise.all([stat(path), readFile(path, 'utf8')])
      return { tag: tagOf(s), body, ageMs: Math.max(0, Date.now() - s.mtimeMs) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }

  async renew(key: string, tag: string, _body: string): Promise<string | null> {
    const path = this.path(key)
    const before = await stat(path).catch(() => null)
    if (!before || tagOf(before) !== tag) return null
    const now = new Date()
    await utimes(path, now, now)
    return tagOf(await stat(path))
  }

  async remove(key: string, tag: string): Promise<boolean> {
    const path = this.path(key)
    const aside = join(dirname(path), `.${randomUUID()}.gone`)
    try {
      await rename(path, aside)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
      throw error
    }
    const moved = await stat(aside)
    if (tagOf(moved) === tag) {
      await rm(aside, { force: true })
      return true
    }
    // Another holder's claim (only when taking over an abandoned one races a fresh claimer): put it back, unless
    // someone claimed the name in the instant it was away.
    await link(aside, path).catch(() => undefined)
    await rm(aside, { force: true })
    return false
  }

  private path(key: string): string {
    return join(this.dir, ...key.split('/'))
  }
}

function tagOf(s: { ino: number | bigint; mtimeMs: number }): string {
  return `${s.ino}:${s.mtimeMs}`
}
