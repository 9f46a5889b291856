import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { rm, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import type { NamespacePath, TableId } from '../path'
import { makeTempFolder, TEMP_PREFIXES } from '../../tempFolders'

/** One row of a directory catalog's `__manifest` (lance-namespace-impls 8, lancedb 0.31.0). */
export interface ManifestRow {
  object_id: string
  object_type: string
  location: string | null
  metadata: string | null
  base_objects: string[] | null
}

export const DELIMITER = '$'

export function objectIdOf(namespace: NamespacePath, name: string): string {
  return [...namespace, name].join(DELIMITER)
}

export function tableObjectId(id: TableId): string {
  return objectIdOf(id.namespace, id.name)
}

/**
 * Where a table's directory goes. Facts measured on lancedb 0.31.0 (default `dir_listing_enabled`): tables of
 * the ROOT namespace are found only by listing `{root}/{name}.lance` directories — their `__manifest` rows are
 * bookkeeping (drop reads them) and a root row pointing elsewhere is not seen — while tables of child
 * namespaces are found only through their `__manifest` row, whose `location` may name any directory (Lance
 * names them `{8 hex}_{object_id}`).
 */
export function tableDirFor(id: TableId): string {
  if (id.namespace.length === 0) return `${id.name}.lance`
  return `${randomBytes(4).toString('hex')}_${tableObjectId(id)}`
}

/**
 * lancedb itself writes the manifest too (creates, drops, and the compaction and index updates it runs after
 * each write); a commit that loses such a race fails with a conflict and is safe to try again.
 */
async function retried<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (error) {
      if (attempt >= attempts || !/conflict|concurrent|retryable/i.test(String((error as Error)?.message))) throw error
    }
  }
}

function sql(value: string): string {
  return `'${value.replace(/'/g, "''")}'`
}

/**
 * Edits of `__manifest` that lancedb 0.31.0 does not offer (it answers rename with "not implemented"), each
 * ONE Lance commit on the manifest table, so a reader (and a crash) sees the state before or after it:
 * - {@link moveRow}: rename / publish — an UPDATE that rewrites the row's `object_id` (and `location`);
 * - {@link swapLocations}: overwrite — a merge-insert on `object_id` that exchanges two rows' locations.
 * The manifest is a Lance table without the `.lance` suffix, so it is opened through a symlink `m.lance` in a
 * private temp dir (as the server's DirLocator does), with `readConsistencyInterval: 0` so every read sees the
 * latest version (Lance's own DirectoryNamespace also reloads the manifest before each read and write).
 */
export class CatalogManifest {
  private opened: Promise<lancedb.Table> | undefined
  private side: string | undefined

  constructor(readonly root: string) {}

  get exists(): boolean {
    return existsSync(join(this.root, '__manifest'))
  }

  /** Every row with this object id (a healthy manifest has at most one). */
  async find(objectId: string): Promise<ManifestRow[]> {
    return this.query(`object_id = ${sql(objectId)}`)
  }

  /** Rows whose object id starts with `prefix` (a namespace's children: `ns$`). */
  async query(where: string): Promise<ManifestRow[]> {
    const table = await this.table()
    const rows = await table.query().where(where).toArray()
    return rows.map((r) => ({
      object_id: String(r.object_id),
      object_type: String(r.object_type),
      location: r.location ?? null,
      metadata: r.metadata ?? null,
      base_objects: r.base_objects ? [...(r.base_objects as Iterable<string>)] : null,
    }))
  }

  /** Rename a table's row in one commit: `object_id` from → to, and its `location` when given. */
  async moveRow(fromId: string, toId: string, location?: string): Promise<number> {
    const table = await this.table()
    const values: Record<string, string> = { object_id: toId }
    if (location !== undefined) values.location = location
    const result = await retried(() => table.update({ where: `object_id = ${sql(fromId)} AND object_type = 'table'`, values }))
    return result.rowsUpdated
  }

  /** Exchange the locations of two table rows in one commit (a merge-insert that updates both). */
  async swapLocations(a: ManifestRow, b: ManifestRow): Promise<void> {
    const table = await this.table()
    const schema = await table.schema()
    const rows = [
      { ...a, location: b.location },
      { ...b, location: a.location },
    ]
    const data = lancedb.makeArrowTable(rows, { schema })
    const result = await retried(() => table.mergeInsert('object_id').whenMatchedUpdateAll().execute(data))
    if (result.numUpdatedRows !== 2 || result.numInsertedRows !== 0) {
      throw new Error(`swapping manifest rows touched ${result.numUpdatedRows} rows and inserted ${result.numInsertedRows}`)
    }
  }

  /** Add a table row (a root table that had only its `{name}.lance` directory). */
  async addTable(objectId: string, location: string): Promise<void> {
    const table = await this.table()
    const schema = await table.schema()
    await retried(() => table.add(lancedb.makeArrowTable([{ object_id: objectId, object_type: 'table', location, metadata: null, base_objects: null }], { schema })))
  }

  async deleteRow(objectId: string, type = 'table'): Promise<void> {
    const table = await this.table()
    await retried(() => table.delete(`object_id = ${sql(objectId)} AND object_type = ${sql(type)}`))
  }

  /** Let go of the manifest table (not `close()`d: a listing may still be reading it, see LanceDirClient.released). */
  async close(): Promise<void> {
    this.opened = undefined
    if (this.side) await rm(this.side, { recursive: true, force: true })
    this.side = undefined
  }

  private table(): Promise<lancedb.Table> {
    if (!this.opened) {
      this.opened = (async () => {
        // Named after this process, so a start after a kill -9 removes it (and only the link in it, not the catalog).
        this.side ??= await makeTempFolder(TEMP_PREFIXES.manifest)
        const link = join(this.side, 'm.lance')
        if (!existsSync(link)) await symlink(join(this.root, '__manifest'), link, process.platform === 'win32' ? 'junction' : 'dir')
        const db = await lancedb.connect(this.side, { readConsistencyInterval: 0 })
        return db.openTable('m')
      })()
      this.opened.catch(() => (this.opened = undefined))
    }
    return this.opened
  }
}
