import { existsSync } from 'node:fs'
import { readdir, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Connection } from '@lancedb/lancedb'
import { isAlive } from '../../procStat'
import { abandonedIntents, clearIntent, journalDir, scanJournal, type JournalEntry } from './journal'
import { isStagingName, stagingPid, STAGING_PREFIX } from './staging'
import { formatTableId, type TableId } from '../path'
import { DELIMITER } from './manifest'
import { applyMove, applySwap, type MoveContext } from './moves'

/**
 * Run when a directory catalog is opened: finish or undo what crashed writers left, and remove their staging
 * tables and set-aside directories. Writers still running (their process is alive) are left alone. Returns one
 * line per thing done, in words, for the jobs history; nothing is written when nothing was left.
 */
export async function recoverCatalog(ctx: MoveContext, db: Connection): Promise<string[]> {
  const notes: string[] = []
  for (const entry of await abandonedIntents(ctx.root)) {
    const { intent } = entry
    try {
      if (intent.op === 'move') {
        await applyMove(ctx, intent)
        notes.push(`Finished moving table ${formatTableId(intent.from)} to ${formatTableId(intent.to)}`)
      } else if (intent.op === 'swap') {
        await applySwap(ctx, intent)
        notes.push(`Finished replacing the data of table ${formatTableId(intent.target)} (an interrupted overwrite)`)
      } else {
        const rolledBack = await rollBackAppend(db, intent.table, intent.version)
        if (rolledBack) notes.push(`Rolled back an interrupted append to table ${formatTableId(intent.table)} (version ${intent.version} restored)`)
      }
      await clearIntent(entry.file)
    } catch (error) {
      notes.push(`Could not recover ${intent.op} (${entry.file}): ${(error as Error).message}`)
    }
  }
  for (const leftover of await stagingLeftovers(ctx)) {
    try {
      await dropLeftover(ctx, db, leftover)
      notes.push(`Removed the unfinished staging table ${formatTableId(leftover.id)}`)
    } catch (error) {
      notes.push(`Could not remove the unfinished staging table ${formatTableId(leftover.id)}: ${(error as Error).message}`)
    }
  }
  for (const name of await deadDirectories(ctx)) {
    await rm(join(ctx.root, name), { recursive: true, force: true })
    notes.push(
      name.startsWith(ASIDE_PREFIX)
        ? `Removed the replaced data left by an interrupted overwrite (${name})`
        : `Removed the data of an unfinished staging table (${name})`,
    )
  }
  return notes
}

/**
 * What {@link recoverCatalog} would do, in words ("an interrupted import of landing/crashtest"), found without
 * writing anything: a read-only connection reports it and recovers only when the user says so. Empty when
 * nothing was left.
 */
export async function pendingRecovery(ctx: MoveContext): Promise<string[]> {
  const found = new Set<string>()
  const { entries, junk } = await scanJournal(ctx.root)
  for (const entry of entries) found.add(describeIntent(entry))
  for (const leftover of await stagingLeftovers(ctx)) found.add(`an interrupted import of ${describeStaged(leftover.id)}`)
  for (const name of await deadDirectories(ctx)) {
    if (name.startsWith(ASIDE_PREFIX)) found.add(`the old data of an interrupted overwrite of ${name.replace(/^\.lcb-replaced-\d+-[0-9a-f]+-/, '')}`)
    else {
      const parts = name.slice(name.indexOf('_') + 1).split(DELIMITER)
      found.add(`an interrupted import of ${describeStaged({ namespace: parts.slice(0, -1), name: parts[parts.length - 1]! })}`)
    }
  }
  if (junk.length > 0) found.add(`${junk.length === 1 ? 'a write record' : `${junk.length} write records`} cut short in ${journalDir(ctx.root)}`)
  return [...found]
}

function describeIntent({ intent }: JournalEntry): string {
  if (intent.op === 'move') return `an interrupted rename of ${formatTableId(intent.from)} to ${formatTableId(intent.to)}`
  if (intent.op === 'swap') return `an interrupted overwrite of ${formatTableId(intent.target)}`
  return `an interrupted append to ${formatTableId(intent.table)}`
}

/** The table a staging table was being written for: `.lcb-staging-<pid>-<random>-<name>` → `ns/name`. */
function describeStaged(id: TableId): string {
  const name = id.name.startsWith(STAGING_PREFIX) ? id.name.replace(/^\.lcb-staging-\d+-[0-9a-f]+-/, '') : id.name
  return formatTableId({ namespace: id.namespace, name })
}

async function rollBackAppend(db: Connection, id: TableId, version: number): Promise<boolean> {
  let table
  try {
    table = await db.openTable(id.name, [...id.namespace])
  } catch {
    return false // dropped since
  }
  try {
    if ((await table.version()) <= version) return false
    await table.checkout(version)
    await table.restore()
    return true
  } finally {
    table.close()
  }
}

interface Leftover {
  id: TableId
  /** Its directory, relative to the root. */
  dir: string
  inManifest: boolean
}

const ASIDE_PREFIX = '.lcb-replaced-'
/** A child namespace's table directory as Lance names it, `{8 hex}_{object_id}`, for a staging table. */
const CHILD_STAGING_DIR = /^[0-9a-f]{8}_(?:[^/]*\$)?\.lcb-staging-(\d+)-/

/** When a mark on disk was last touched by its writer: a moment that writer was alive (see isAlive). */
async function markTime(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs
  } catch {
    return undefined
  }
}

async function writerGone(pid: number | null, path: string): Promise<boolean> {
  return pid !== null && !isAlive(pid, await markTime(path))
}

/** Staging tables whose writer is gone: root `.lcb-staging-*.lance` directories and manifest rows. */
async function stagingLeftovers(ctx: MoveContext): Promise<Leftover[]> {
  const found = new Map<string, Leftover>()
  if (ctx.manifest?.exists) {
    for (const row of await ctx.manifest.query(`object_type = 'table' AND object_id LIKE '%.lcb-staging-%'`)) {
      const parts = row.object_id.split(DELIMITER)
      const name = parts[parts.length - 1]!
      if (!isStagingName(name) || !row.location || !(await writerGone(stagingPid(name), join(ctx.root, row.location)))) continue
      found.set(row.object_id, { id: { namespace: parts.slice(0, -1), name }, dir: row.location, inManifest: true })
    }
  }
  for (const entry of await readdir(ctx.root).catch(() => [] as string[])) {
    if (!entry.endsWith('.lance')) continue
    const name = entry.slice(0, -'.lance'.length)
    if (isStagingName(name) && !found.has(name) && (await writerGone(stagingPid(name), join(ctx.root, entry)))) {
      found.set(name, { id: { namespace: [], name }, dir: entry, inManifest: false })
    }
  }
  return [...found.values()]
}

/**
 * Directories at the root, listed by no reader, that dead writers left: set-aside data of root overwrites, and
 * the data of child-namespace staging tables without a manifest row (a writer killed before Lance added the row,
 * or a removal killed between dropping the row and deleting the data). A published child table keeps its
 * staging-named directory, so a directory some manifest row points to is never one of them.
 */
async function deadDirectories(ctx: MoveContext): Promise<string[]> {
  const candidates: string[] = []
  for (const name of await readdir(ctx.root).catch(() => [] as string[])) {
    const aside = new RegExp(`^\\${ASIDE_PREFIX}(\\d+)-`).exec(name)?.[1]
    const staged = CHILD_STAGING_DIR.exec(name)?.[1]
    const pid = aside ?? staged
    if (pid !== undefined && (await writerGone(Number(pid), join(ctx.root, name)))) candidates.push(name)
  }
  const staged = candidates.filter((n) => !n.startsWith(ASIDE_PREFIX))
  if (staged.length === 0) return candidates
  if (!ctx.manifest?.exists) return candidates.filter((n) => n.startsWith(ASIDE_PREFIX))
  const inList = staged.map((n) => `'${n.replace(/'/g, "''")}'`).join(', ')
  const referenced = new Set((await ctx.manifest.query(`location IN (${inList})`)).map((r) => r.location))
  return candidates.filter((n) => !referenced.has(n))
}

async function dropLeftover(ctx: MoveContext, db: Connection, leftover: Leftover): Promise<void> {
  try {
    await db.dropTable(leftover.id.name, [...leftover.id.namespace])
  } catch {
    // Half-written (no version yet) or without a row: remove it by hand below.
  }
  if (leftover.inManifest) await ctx.manifest?.deleteRow([...leftover.id.namespace, leftover.id.name].join(DELIMITER))
  const path = join(ctx.root, leftover.dir)
  if (existsSync(path)) await rm(path, { recursive: true, force: true })
}
