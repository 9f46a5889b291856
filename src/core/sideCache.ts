import { createHash, randomBytes } from 'node:crypto'
import { mkdir, open, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * Results we compute about a table version and keep beside our settings — never inside the user's catalog:
 * column profiles, embedding-map coordinates. A version's rows never change, so a kept result stays right as
 * long as the key names the version exactly (callers put the catalog's location, namespace, name, version and
 * the version's commit time in it: a table dropped and made again restarts at version 1).
 *
 * Each kind is a folder; each entry one file named by a hash of its key, written whole to a temp file and
 * renamed, so a crash or a cancelled job never leaves half an entry. When a kind grows past its byte budget the
 * least recently used entries go first.
 */
export interface SideCache {
  /** The entry, or with `head` only its first `head` bytes (all of it when shorter): a header read without the rest. */
  read(kind: string, key: readonly unknown[], options?: ReadOptions): Promise<Uint8Array | null>
  write(kind: string, key: readonly unknown[], data: Uint8Array): Promise<void>
}

export interface ReadOptions {
  head?: number
}

/** Per kind, what the cache may hold before it forgets the least recently used entries. */
const DEFAULT_BUDGET_BYTES = 512 * 1024 * 1024
const KIND = /^[a-z][a-z0-9-]{0,31}$/

function entryName(key: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 40)
}

function checkKind(kind: string): void {
  if (!KIND.test(kind)) throw new Error(`side cache: bad kind ${JSON.stringify(kind)}`)
}

export class FileSideCache implements SideCache {
  constructor(
    private readonly dir: string,
    private readonly budgetBytes = DEFAULT_BUDGET_BYTES,
  ) {}

  async read(kind: string, key: readonly unknown[], options: ReadOptions = {}): Promise<Uint8Array | null> {
    checkKind(kind)
    const path = join(this.dir, kind, entryName(key))
    try {
      const data = options.head === undefined ? await readFile(path) : await readHead(path, options.head)
      // The modification time records the last use (atime is often not kept), so trimming drops the least used.
      const now = new Date()
      await utimes(path, now, now).catch(() => undefined)
      return new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
  }

  async write(kind: string, key: readonly unknown[], data: Uint8Array): Promise<void> {
    checkKind(kind)
    const folder = join(this.dir, kind)
    await mkdir(folder, { recursive: true })
    const path = join(folder, entryName(key))
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    try {
      await writeFile(temp, data)
      await rename(temp, path)
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    }
    await this.trim(folder)
  }

  /** Forget the least recently used entries of one kind until it fits its budget (and stray temp files). */
  private async trim(folder: string): Promise<void> {
    const entries: { path: string; size: number; used: number }[] = []
    for (const name of await readdir(folder)) {
      const path = join(folder, name)
      const info = await stat(path).catch(() => null)
      if (!info) continue
      // A temp file older than a minute belongs to a writer that died.
      if (name.endsWith('.tmp')) {
        if (Date.now() - info.mtimeMs > 60_000) await rm(path, { force: true })
        continue
      }
      entries.push({ path, size: info.size, used: info.mtimeMs })
    }
    let total = entries.reduce((sum, e) => sum + e.size, 0)
    entries.sort((a, b) => a.used - b.used)
    for (const entry of entries) {
      if (total <= this.budgetBytes) break
      await rm(entry.path, { force: true })
      total -= entry.size
    }
  }
}

/** The first `bytes` bytes of a file (fewer when it is shorter). */
async function readHead(path: string, bytes: number): Promise<Buffer> {
  const file = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(bytes)
    const { bytesRead } = await file.read(buffer, 0, bytes, 0)
    return buffer.subarray(0, bytesRead)
  } finally {
    await file.close()
  }
}

/** The same cache for this process only (the harness without a cache folder, tests). */
export class MemorySideCache implements SideCache {
  private readonly entries = new Map<string, Uint8Array>()

  async read(kind: string, key: readonly unknown[], options: ReadOptions = {}): Promise<Uint8Array | null> {
    checkKind(kind)
    const entry = this.entries.get(`${kind}/${entryName(key)}`) ?? null
    return entry && options.head !== undefined ? entry.subarray(0, options.head) : entry
  }

  async write(kind: string, key: readonly unknown[], data: Uint8Array): Promise<void> {
    checkKind(kind)
    this.entries.set(`${kind}/${entryName(key)}`, data.slice())
  }
}
