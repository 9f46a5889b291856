import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const U64_MAX = (1n << 64n) - 1n

/**
 * The names Lance gives `version`'s manifest in `_versions/`: the V2 scheme (u64::MAX − version, 20 digits,
 * so the newest sorts first; what lancedb 0.31 writes) and the older plain number.
 */
export function manifestNames(version: number): string[] {
  return [`${(U64_MAX - BigInt(version)).toString().padStart(20, '0')}.manifest`, `${version}.manifest`]
}

/**
 * A cheap identity of one commit of a local Lance table: a hash of `version`'s manifest bytes. Lance writes a
 * version's manifest once and never changes it (a restore or overwrite commits a new version), and the manifest
 * names the commit's data files by random ids and holds its commit time, so a table dropped and created again
 * gets other bytes at the same version number. One small file read, where `listVersions` reads every version's
 * manifest (~15–40 ms at 100 versions). Null where the table is not in a local directory or the file is not
 * found under either name (callers then fall back to the version's commit time).
 */
export async function manifestStamp(tableUri: string, version: number): Promise<string | null> {
  let dir: string
  if (tableUri.startsWith('file://')) dir = fileURLToPath(tableUri)
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(tableUri)) return null
  else dir = tableUri
  for (const name of manifestNames(version)) {
    try {
      const bytes = await readFile(join(dir, '_versions', name))
      return createHash('sha256').update(bytes).digest('base64url')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return null
    }
  }
  return null
}
