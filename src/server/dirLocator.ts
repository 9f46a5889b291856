import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { AppError } from '../contract'
import { makeTempFolder, TEMP_PREFIXES } from '../core'
import { formatTableId, type TableId } from '../core/namespace'
import type { Locator } from './locator'

/**
 * Where a directory catalog keeps each table, and "declare" (reserve a location without data) —
 * two things the REST contract needs (describe/declare answer `location`, and @lancedb/lancedb's REST
 * client writes the Lance dataset there itself) but which neither our `dir` client nor lancedb's
 * `connectNamespace("dir")` exposes (lancedb 0.31.0).
 *
 * Layout facts (rest-contract.md §8, checked on 0.31.0): root tables live in `{root}/{name}.lance`
 * (found by directory listing, with or without a `__manifest` row); tables in child namespaces live in
 * the directory the `__manifest` row names (`{8 hex}_{ns$name}`, random per creation). The manifest is a
 * Lance table without the `.lance` suffix, so we open it through a symlink `m.lance` in a private temp dir.
 */
export class DirLocator implements Locator {
  private manifest: Promise<lancedb.Table> | undefined
  private side: string | undefined
  /** Locations of tables with data, by object id; each hit is re-checked on disk (others may drop tables). */
  private readonly known = new Map<string, { location: string; inManifest: boolean }>()

  constructor(readonly root: string) {}

  get hasManifest(): boolean {
    return existsSync(join(this.root, '__manifest'))
  }

  /** The absolute location of `id` (existing or declared), and whether it holds data yet. */
  async locate(id: TableId): Promise<{ location: string; hasData: boolean; inManifest: boolean } | null> {
    const oid = objectId(id)
    const cached = this.known.get(oid)
    if (cached && (await isDataset(cached.location))) return { ...cached, hasData: true }
    this.known.delete(oid)
    const found = await this.lookup(id)
    if (found?.hasData) this.known.set(oid, { location: found.location, inManifest: found.inManifest })
    return found
  }

  /** Forget what we know of `id` (after this server changed it). */
  forget(id: TableId): void {
    this.known.delete(objectId(id))
  }

  private async lookup(id: TableId): Promise<{ location: string; hasData: boolean; inManifest: boolean } | null> {
    const row = this.hasManifest ? await this.manifestRow(objectId(id)) : null
    if (row?.location) {
      const location = resolve(this.root, row.location)
      return { location, hasData: await isDataset(location), inManifest: true }
    }
    if (id.namespace.length === 0) {
      const location = join(this.root, `${id.name}.lance`)
      if (await isDataset(location)) return { location, hasData: true, inManifest: false }
    }
    return null
  }

  /**
   * Reserve a location for a new table (DeclareTable): a `__manifest` row pointing to a fresh directory
   * with a `.lance-reserved` marker, as DirectoryNamespace's own declare does. Without a manifest (a
   * tables-only catalog) root tables need no row: `{root}/{name}.lance` is found by directory listing.
   * The caller serializes writes and has checked that the namespace exists.
   */
  async declare(id: TableId): Promise<string> {
    const existing = await this.locate(id)
    if (existing) throw new AppError('already_exists', `Table ${formatTableId(id)} already exists`)
    if (!this.hasManifest) {
      if (id.namespace.length === 0) return join(this.root, `${id.name}.lance`)
      throw new AppError('unsupported', 'This catalog has no __manifest, so it holds tables only at its root')
    }
    const oid = objectId(id)
    // Root tables keep the V1 name `{name}.lance`, as DirectoryNamespace itself names them.
    const dir = id.namespace.length === 0 ? `${id.name}.lance` : `${randomBytes(4).toString('hex')}_${oid}`
    const location = join(this.root, dir)
    await mkdir(location, { recursive: true })
    await writeFile(join(location, '.lance-reserved'), 'reserved')
    const table = await this.manifestTable()
    // Check-and-insert in one commit: a row whose object id is taken by anything (a namespace, a table
    // declared by another process) is not inserted, and then nothing is reserved.
    const result = await table
      .mergeInsert('object_id')
      .whenNotMatchedInsertAll()
      .execute([{ object_id: oid, object_type: 'table', location: dir, metadata: null, base_objects: null }])
      .catch(async (error: unknown) => {
        await rm(location, { recursive: true, force: true })
        throw error
      })
    if (result.numInsertedRows !== 1 || !(await this.wonRace(table, oid, dir))) {
      await rm(location, { recursive: true, force: true })
      throw new AppError('already_exists', `The name ${formatTableId(id)} is already taken in this catalog`)
    }
    return location
  }

  /**
   * Remove a root table that exists only as a `{name}.lance` directory, with no `__manifest` row
   * (written by another tool): DirectoryNamespace's drop cannot see it, directory listing can.
   */
  async dropUnlisted(id: TableId): Promise<boolean> {
    if (id.namespace.length > 0) return false
    const found = await this.locate(id)
    if (!found || found.inManifest || !found.hasData) return false
    await rm(found.location, { recursive: true, force: true })
    return true
  }

  /**
   * Lance's merge-insert does not stop two *processes* from inserting the same object id (tested: both
   * commits succeed and the manifest then holds it twice, which breaks every later write). So after
   * inserting, look again: the row committed first (lowest row id: fragments are numbered in commit
   * order) wins, and a later one deletes its own row. Every racer decides the same way.
   */
  private async wonRace(table: lancedb.Table, oid: string, dir: string): Promise<boolean> {
    const rows = (await table
      .query()
      .where(`object_id = '${oid.replace(/'/g, "''")}'`)
      .select(['location'])
      .withRowId()
      .toArray()) as { location: string | null; _rowid: bigint }[]
    if (rows.length <= 1) return true
    const first = rows.reduce((a, b) => (BigInt(b._rowid) < BigInt(a._rowid) ? b : a))
    if (first.location === dir) return true
    await table.delete(`object_id = '${oid.replace(/'/g, "''")}' AND location = '${dir.replace(/'/g, "''")}'`)
    return false
  }

  /**
   * Remove a listed table that cannot be opened (no data, a damaged dataset): its `__manifest` row and its
   * directory, which must lie inside the catalog. Returns false when there is nothing of it to remove.
   */
  async dropDamaged(id: TableId): Promise<boolean> {
    const found = await this.lookup(id)
    if (!found) return false
    const location = resolve(found.location)
    if (!location.startsWith(resolve(this.root) + sep)) throw new AppError('invalid_input', `Table ${formatTableId(id)} lies outside the catalog; it is not removed`)
    if (found.inManifest) {
      const oid = objectId(id).replace(/'/g, "''")
      await (await this.manifestTable()).delete(`object_id = '${oid}' AND object_type = 'table'`)
    }
    this.forget(id)
    await rm(location, { recursive: true, force: true })
    return true
  }

  async close(): Promise<void> {
    const opened = this.manifest
    this.manifest = undefined
    if (opened) (await opened.catch(() => undefined))?.close()
    if (this.side) await rm(this.side, { recursive: true, force: true })
  }

  private async manifestRow(oid: string): Promise<{ location: string | null } | null> {
    const table = await this.manifestTable()
    const rows = await table
      .query()
      .where(`object_id = '${oid.replace(/'/g, "''")}' AND object_type = 'table'`)
      .select(['location'])
      .limit(1)
      .toArray()
    return rows[0] ? { location: (rows[0] as { location: string | null }).location } : null
  }

  private manifestTable(): Promise<lancedb.Table> {
    if (!this.manifest) {
      this.manifest = (async () => {
        // Named after this process: a start after a kill -9 removes it (see sweepTempFoldersAtStart).
        this.side = await makeTempFolder(TEMP_PREFIXES.manifest)
        await symlink(join(this.root, '__manifest'), join(this.side, 'm.lance'), process.platform === 'win32' ? 'junction' : 'dir')
        // readConsistencyInterval 0: every read sees the latest manifest version (others write it too).
        const db = await lancedb.connect(this.side, { readConsistencyInterval: 0 })
        return db.openTable('m')
      })()
      this.manifest.catch(() => (this.manifest = undefined))
    }
    return this.manifest
  }
}

function objectId(id: TableId): string {
  return [...id.namespace, id.name].join('$')
}

async function isDataset(location: string): Promise<boolean> {
  try {
    return (await stat(join(location, '_versions'))).isDirectory()
  } catch {
    return false
  }
}
