import type { Table as LanceTable } from '@lancedb/lancedb'
import { open, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AppError } from '../../../contract'
import { DEFAULT_DATA_FORMAT, dataFormats, type DataFormat } from '../../../contract/dataFormat'

/**
 * The one reader of a table's data file format (Lance's `data_storage_version`). lancedb 0.31 does not expose it,
 * and a table keeps the format it was created with. Where the table is on this disk, one small read of its latest
 * manifest tells it: no Lance call, no data file opened ({@link readDataFormat}). Elsewhere (object storage, where
 * that read would be a round trip, or a manifest that cannot be read) an open handle is asked: one row taken by
 * position, which legacy files refuse ({@link dataFilesOf}).
 *
 * A Lance manifest file ends with a 16-byte footer (u64 offset of the manifest message, u16 major, u16 minor,
 * "LANC"); at that offset a u32 length and the protobuf `Manifest`, whose field 15 `data_format` holds
 * `{ file_format = 1: "lance", version = 2: "0.1" | "2.0" | "2.1" | … }`. Lance reads a manifest without that field
 * as the legacy format (manifests written before Lance had a second format).
 */

/**
 * Where Lance keeps `table`. lancedb 0.31.0 has no accessor for it; `display()` prints
 * `NativeTable(<name>, uri=<uri>, read_consistency_interval=…)`, and the URI is what the namespace resolved
 * (for child-namespace tables the random directory named by `__manifest`).
 */
export function tableUri(table: LanceTable): string {
  const match = /\buri=(.*?), read_consistency_interval=/.exec(table.display())
  if (!match?.[1]) throw new AppError('internal', `Cannot tell where table ${table.name} is stored (lancedb changed its display format)`)
  return match[1]
}

/** What the legacy read paths (./legacyFiles.ts) need to know: Lance's legacy (v1) files, or any later format. */
export type DataFiles = 'legacy' | 'v2'

/** Lance's words when a take or a row-position filter meets legacy files. */
const LEGACY_READ_ERROR = /FilteredRead on v1 files/

/** Whether a Lance error is the one legacy files give (a caller then names the format in words). */
export function isLegacyReadError(error: unknown): boolean {
  return LEGACY_READ_ERROR.test(error instanceof Error ? error.message : String(error))
}

const dataFiles = new WeakMap<LanceTable, Promise<DataFiles>>()

/** Whether the table's data files are legacy, found once per handle: its manifest where there is a file, else the probe. */
export function dataFilesOf(table: LanceTable): Promise<DataFiles> {
  let files = dataFiles.get(table)
  if (!files) {
    files = (async (): Promise<DataFiles> => {
      const location = (() => {
        try {
          return tableUri(table)
        } catch {
          return null
        }
      })()
      const format = location === null ? null : await readDataFormat(location)
      if (format !== null) return format === 'legacy' ? 'legacy' : 'v2'
      return probeDataFiles(table)
    })()
    dataFiles.set(table, files)
  }
  return files
}

/**
 * Ask Lance itself (lancedb 0.31 has no data storage version in `stats()` and no manifest accessor): take one row's
 * first column — what fails on legacy files, in the words above. The files keep the table's format, so one row
 * answers for all. Exported for the test that holds the manifest's answer and this one to agree.
 */
export async function probeDataFiles(table: LanceTable): Promise<DataFiles> {
  const first = (await table.schema()).fields[0]?.name
  if (first === undefined) return 'v2'
  try {
    await table.takeOffsets([0]).select([first]).toArrow()
    return 'v2'
  } catch (error) {
    if (isLegacyReadError(error)) return 'legacy'
    // Another failure (an empty table has no row 0 on some releases): the real read reports its own error.
    return 'v2'
  }
}

/** Lance's version strings, as users know them: `0.1`/`0.2` are the legacy (v1) files, `0.3` is 2.0. */
export function formatName(version: string): string {
  if (version === '0.1' || version === '0.2' || version === 'legacy') return 'legacy'
  if (version === '0.3') return '2.0'
  return version
}

/** The format of the table at `location` (a local path or `file://` URL); null when it is not local or unreadable. */
export async function readDataFormat(location: string): Promise<string | null> {
  const dir = localPath(location)
  if (dir === null) return null
  try {
    const manifest = await latestManifest(join(dir, '_versions'))
    if (manifest === null) return null
    return formatName(await manifestFormat(manifest))
  } catch {
    return null
  }
}

function localPath(location: string): string | null {
  if (location.startsWith('file://')) return fileURLToPath(location)
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) return null
  return location
}

const U64_MAX = (1n << 64n) - 1n

/** The manifest of the highest version: `{n}.manifest` (V1 names) or `{u64::MAX - n}.manifest` (V2 names). */
async function latestManifest(versionsDir: string): Promise<string | null> {
  let best: { version: bigint; file: string } | null = null
  for (const file of await readdir(versionsDir)) {
    const m = /^(\d+)\.manifest$/.exec(file)
    if (!m) continue
    const n = BigInt(m[1]!)
    const version = n > 1n << 63n ? U64_MAX - n : n
    if (best === null || version > best.version) best = { version, file }
  }
  return best === null ? null : join(versionsDir, best.file)
}

/** A manifest larger than this is not read (its fragments list would be; the format is then unknown). */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024

async function manifestFormat(path: string): Promise<string> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    if (size < 16) throw new Error('short manifest')
    const footer = Buffer.alloc(16)
    await handle.read(footer, 0, 16, size - 16)
    if (footer.toString('latin1', 12, 16) !== 'LANC') throw new Error('not a Lance manifest')
    const at = Number(footer.readBigUInt64LE(0))
    const head = Buffer.alloc(4)
    await handle.read(head, 0, 4, at)
    const length = head.readUInt32LE(0)
    if (length > MAX_MANIFEST_BYTES || at + 4 + length > size) throw new Error('manifest too large or cut')
    const body = Buffer.alloc(length)
    await handle.read(body, 0, length, at + 4)
    const dataFormat = field(body, 15)
    if (dataFormat === null) return 'legacy'
    const version = field(dataFormat, 2)
    return version === null ? 'legacy' : version.toString('utf8')
  } finally {
    await handle.close()
  }
}

/** The last length-delimited field `number` of a protobuf message (skipping the others), or null. */
function field(buf: Buffer, number: number): Buffer | null {
  let pos = 0
  let found: Buffer | null = null
  const varint = (): bigint => {
    let result = 0n
    let shift = 0n
    for (;;) {
      if (pos >= buf.length) throw new Error('truncated varint')
      const byte = buf[pos++]!
      result |= BigInt(byte & 0x7f) << shift
      if ((byte & 0x80) === 0) return result
      shift += 7n
    }
  }
  while (pos < buf.length) {
    const key = varint()
    const wire = Number(key & 7n)
    const tag = Number(key >> 3n)
    if (wire === 0) varint()
    else if (wire === 1) pos += 8
    else if (wire === 5) pos += 4
    else if (wire === 2) {
      const len = Number(varint())
      if (tag === number) found = buf.subarray(pos, pos + len)
      pos += len
    } else throw new Error(`unexpected protobuf wire type ${wire}`)
  }
  return found
}

/**
 * The format new tables take by default: the one most of `counts` are in. Tables in a format newer than the newest
 * the app offers count for that newest (their readers read it too); on a tie the older format wins, since more
 * releases read it. No tables: Lance's default.
 */
export function majorityFormat(counts: Record<string, number>): DataFormat {
  const newest = dataFormats[dataFormats.length - 1]!
  const tally = new Map<DataFormat, number>()
  for (const [name, n] of Object.entries(counts)) {
    const format: DataFormat = (dataFormats as readonly string[]).includes(name) ? (name as DataFormat) : newest
    tally.set(format, (tally.get(format) ?? 0) + n)
  }
  let best: DataFormat | null = null
  for (const format of dataFormats) {
    if ((tally.get(format) ?? 0) > (best === null ? 0 : tally.get(best)!)) best = format
  }
  return best ?? DEFAULT_DATA_FORMAT
}
