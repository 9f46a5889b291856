import { createHash, randomBytes } from 'node:crypto'
import { constants } from 'node:fs'
import { lstat, mkdir, open, readdir, rename, rm, writeFile, type FileHandle } from 'node:fs/promises'
import type { Stats } from 'node:fs'
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
 *
 * A kept file is not trusted: it may have been moved onto another entry's name, edited, cut short or grown, or
 * replaced by a FIFO, a device or a symlink. Each entry therefore names its kind and whole key and carries its
 * length and SHA-256 (see {@link FileSideCache}); an entry that does not prove itself is a miss — the caller
 * computes the result again and its write replaces the entry — never an answer.
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
/** Entry files, and the temp files they are written to: the only names this cache reads, trims or removes. */
const ENTRY_NAME = /^[0-9a-f]{40}$/
const TEMP_NAME = /^[0-9a-f]{40}\.\d+\.[0-9a-f]{8}\.tmp$/

/**
 * The kept file's layout (all of it checked on a full read; the header, its digest and the head on a head read):
 *
 *   8 bytes   magic `LCBSIDE1`
 *   4 bytes   N, the header's length (uint32, little-endian), at most {@link MAX_HEADER_BYTES}
 *   N bytes   header, JSON: { kind, key (the key's JSON text), length L, sha256 (hex, of the payload), head H }
 *   32 bytes  SHA-256 of the 12 + N bytes before it and the payload's first H bytes (H = min(L, 64 KiB))
 *   L bytes   payload (what the caller wrote)
 *
 * The file is exactly 44 + N + L bytes long. Files of the earlier format (the payload alone) fail the magic: a miss.
 * The checksums find accidents and moved or hand-edited files; they are not a signature (whoever can write the
 * cache folder can write a valid entry, as they could write our settings).
 */
const MAGIC = Buffer.from('LCBSIDE1', 'latin1')
const PREFIX_BYTES = MAGIC.length + 4
const DIGEST_BYTES = 32
/** A key is a few hundred bytes of JSON (a filter is the longest part); a header past this is not ours. */
const MAX_HEADER_BYTES = 1024 * 1024
/** The payload bytes the header's digest covers: a head read of up to this much is verified without the rest. */
export const SIDE_CACHE_HEAD_CHECKED_BYTES = 64 * 1024

/** Open without following a symlink, and without waiting for a FIFO's writer (0 where a platform lacks the flag). */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)
/** What opening a symlink with O_NOFOLLOW (ELOOP; EMLINK on FreeBSD) or a socket (ENXIO) fails with: a miss. */
const NOT_AN_ENTRY = new Set(['ELOOP', 'EMLINK', 'ENXIO'])

interface Header {
  kind: string
  key: string
  length: number
  sha256: string
  head: number
}

function keyText(key: readonly unknown[]): string {
  return JSON.stringify(key)
}

function entryName(key: readonly unknown[]): string {
  return createHash('sha256').update(keyText(key)).digest('hex').slice(0, 40)
}

function checkKind(kind: string): void {
  if (!KIND.test(kind)) throw new Error(`side cache: bad kind ${JSON.stringify(kind)}`)
}

/** The whole kept file for `data` under `kind` and `key`. */
export function encodeSideEntry(kind: string, key: readonly unknown[], data: Uint8Array): Buffer {
  const head = Math.min(data.byteLength, SIDE_CACHE_HEAD_CHECKED_BYTES)
  const header: Header = { kind, key: keyText(key), length: data.byteLength, sha256: createHash('sha256').update(data).digest('hex'), head }
  const json = Buffer.from(JSON.stringify(header), 'utf8')
  if (json.length > MAX_HEADER_BYTES) throw new Error(`side cache: a key of ${json.length} bytes is longer than the ${MAX_HEADER_BYTES} kept`)
  const prefix = Buffer.alloc(PREFIX_BYTES)
  MAGIC.copy(prefix)
  prefix.writeUInt32LE(json.length, MAGIC.length)
  const digest = createHash('sha256').update(prefix).update(json).update(data.subarray(0, head)).digest()
  return Buffer.concat([prefix, json, digest, data])
}

/** Why a kept file is not a valid entry for the key asked: it is a miss, and is replaced. */
class NotAnEntry extends Error {}

export class FileSideCache implements SideCache {
  constructor(
    private readonly dir: string,
    private readonly budgetBytes = DEFAULT_BUDGET_BYTES,
  ) {}

  async read(kind: string, key: readonly unknown[], options: ReadOptions = {}): Promise<Uint8Array | null> {
    checkKind(kind)
    const folder = join(this.dir, kind)
    const path = join(folder, entryName(key))
    // Checked by name first, so a FIFO or a device is never even opened (O_NOFOLLOW and fstat below close the
    // race with a swap in between). A kind folder that is not a real folder (a symlink elsewhere) holds nothing.
    const [folderInfo, before] = await Promise.all([lstatOrNull(folder), lstatOrNull(path)])
    if (!folderInfo?.isDirectory() || !before) return null
    if (!before.isFile()) {
      await discard(path, before)
      return null
    }
    let file: FileHandle
    try {
      file = await open(path, READ_FLAGS)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT') return null
      if (code && NOT_AN_ENTRY.has(code)) {
        await discard(path, null)
        return null
      }
      throw error
    }
    let info: Stats | undefined
    try {
      info = await file.stat()
      const data = await readEntry(file, info, kind, keyText(key), this.budgetBytes, options.head)
      // The modification time records the last use (atime is often not kept), so trimming drops the least used.
      const now = new Date()
      await file.utimes(now, now).catch(() => undefined)
      return data
    } catch (error) {
      if (!(error instanceof NotAnEntry)) throw error
      await discard(path, info ?? null)
      return null
    } finally {
      await file.close()
    }
  }

  async write(kind: string, key: readonly unknown[], data: Uint8Array): Promise<void> {
    checkKind(kind)
    const folder = join(this.dir, kind)
    await ownFolder(folder)
    const name = entryName(key)
    const path = join(folder, name)
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
    try {
      // 'wx': a name nobody else made (a symlink planted there is not followed).
      await writeFile(temp, encodeSideEntry(kind, key, data), { flag: 'wx' })
      // A folder in the entry's place cannot be renamed over; anything else (a FIFO, a symlink) is replaced.
      const there = await lstatOrNull(path)
      if (there?.isDirectory()) await rm(path, { recursive: true, force: true })
      await rename(temp, path)
    } catch (error) {
      await rm(temp, { force: true })
      throw error
    }
    await this.trim(folder)
  }

  /**
   * Forget the least recently used entries of one kind until it fits its budget, stray temp files, and anything
   * under an entry's name that is not a regular file. Only names this cache makes are touched.
   */
  private async trim(folder: string): Promise<void> {
    const entries: { path: string; size: number; used: number }[] = []
    for (const name of await readdir(folder)) {
      const path = join(folder, name)
      const entry = ENTRY_NAME.test(name)
      if (!entry && !TEMP_NAME.test(name)) continue
      const info = await lstatOrNull(path)
      if (!info) continue
      if (!info.isFile()) {
        await discard(path, info)
        continue
      }
      // A temp file older than a minute belongs to a writer that died.
      if (!entry) {
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

/**
 * The payload of an open kept file (or its first `head` bytes) once it proves to be the entry of `kind` and `key`;
 * {@link NotAnEntry} otherwise. Never reads past what the header declares, nor more than the budget allows.
 */
async function readEntry(file: FileHandle, info: Stats, kind: string, key: string, budgetBytes: number, head?: number): Promise<Uint8Array> {
  if (!info.isFile()) throw new NotAnEntry('not a regular file')
  const size = info.size
  if (size < PREFIX_BYTES + DIGEST_BYTES) throw new NotAnEntry('too short')
  const prefix = await readExactly(file, 0, PREFIX_BYTES)
  if (!prefix.subarray(0, MAGIC.length).equals(MAGIC)) throw new NotAnEntry('unknown format')
  const headerBytes = prefix.readUInt32LE(MAGIC.length)
  if (headerBytes > MAX_HEADER_BYTES || PREFIX_BYTES + headerBytes + DIGEST_BYTES > size) throw new NotAnEntry('bad header length')
  const headerAndDigest = await readExactly(file, PREFIX_BYTES, headerBytes + DIGEST_BYTES)
  const json = headerAndDigest.subarray(0, headerBytes)
  const digest = headerAndDigest.subarray(headerBytes)
  const header = parseHeader(json)
  if (header.kind !== kind || header.key !== key) throw new NotAnEntry('another key')
  if (header.length > budgetBytes) throw new NotAnEntry('longer than the budget')
  const payloadAt = PREFIX_BYTES + headerBytes + DIGEST_BYTES
  if (size !== payloadAt + header.length) throw new NotAnEntry('cut short or grown')
  const headVerified = (payloadHead: Buffer) => {
    const expected = createHash('sha256').update(prefix).update(json).update(payloadHead).digest()
    if (!expected.equals(digest)) throw new NotAnEntry('bad header checksum')
  }
  if (head !== undefined && head <= header.head && header.head < header.length) {
    const payloadHead = await readExactly(file, payloadAt, header.head)
    headVerified(payloadHead)
    return new Uint8Array(payloadHead.buffer, payloadHead.byteOffset, Math.max(0, head))
  }
  const payload = await readExactly(file, payloadAt, header.length)
  headVerified(payload.subarray(0, header.head))
  if (createHash('sha256').update(payload).digest('hex') !== header.sha256) throw new NotAnEntry('bad checksum')
  const data = head === undefined ? payload : payload.subarray(0, Math.max(0, head))
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
}

function parseHeader(json: Buffer): Header {
  let header: Partial<Header>
  try {
    header = JSON.parse(json.toString('utf8')) as Partial<Header>
  } catch {
    throw new NotAnEntry('header is not JSON')
  }
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0
  if (
    typeof header !== 'object' ||
    header === null ||
    typeof header.kind !== 'string' ||
    typeof header.key !== 'string' ||
    !count(header.length) ||
    !count(header.head) ||
    header.head > Math.min(header.length, MAX_HEADER_BYTES) ||
    typeof header.sha256 !== 'string' ||
    !/^[0-9a-f]{64}$/.test(header.sha256)
  )
    throw new NotAnEntry('bad header')
  return header as Header
}

/** `length` bytes at `position`; {@link NotAnEntry} when the file ends first (it shrank after its fstat). */
async function readExactly(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length)
  let done = 0
  while (done < length) {
    const { bytesRead } = await file.read(buffer, done, length - done, position + done)
    if (bytesRead === 0) throw new NotAnEntry('cut short')
    done += bytesRead
  }
  return buffer
}

async function lstatOrNull(path: string): Promise<Stats | null> {
  try {
    return await lstat(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return null
    throw error
  }
}

/**
 * Remove what lies under an entry's name and is not a valid entry, so the next read misses at once (a map's head
 * read would otherwise keep finding a head whose tail is bad). A symlink goes, never what it points to (fs.rm does
 * not follow links, in a folder either). A regular file goes only if it is still the one found bad: a writer may
 * have renamed a good entry there since.
 */
async function discard(path: string, found: Stats | null): Promise<void> {
  try {
    const now = await lstat(path)
    if (now.isFile() && (!found || now.ino !== found.ino || now.dev !== found.dev)) return
    await rm(path, { recursive: now.isDirectory(), force: true })
  } catch {
    // Gone already, or cannot be removed: the next write replaces it (or fails in words).
  }
}

/** Make the kind's folder, replacing a symlink or a file in its place (written entries never land outside). */
async function ownFolder(folder: string): Promise<void> {
  const info = await lstatOrNull(folder)
  if (info?.isDirectory()) return
  if (info) await rm(folder, { force: true })
  await mkdir(folder, { recursive: true })
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
