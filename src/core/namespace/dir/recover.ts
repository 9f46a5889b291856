import { existsSync } from 'node:fs'
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Connection } from '@lancedb/lancedb'
import { abandonedIntents, clearIntent, isAlive } from '../../recovery/journal'
import { isStagingName, stagingPid } from '../../recovery/staging'
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
  for (const name of await readdir(ctx.root).catch(() => [] as string[])) {
    const pid = /^\.lcb-replaced-(\d+)-/.exec(name)?.[1]
    if (pid && !isAlive(Number(pid))) {
      await rm(join(ctx.root, name), { recursive: true, force: true })
      notes.push(`Removed the replaced data left by an interrupted overwrite (${name})`)
    }
  }
  return notes
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

/** Staging tables whose writer is gone: root `.lcb-staging-*.lance` directories and manifest rows. */
async function stagingLeftovers(ctx: MoveContext): Promise<Leftover[]> {
  const found = new Map<string, Leftover>()
  const dead = (name: string) => {
    const pid = stagingPid(name)
    return pid !== null && !isAlive(pid)
  }
  if (ctx.manifest?.exists) {
    for (const row of await ctx.manifest.query(`object_type = 'table' AND object_id LIKE '%.lcb-staging-%'`)) {
      const parts = row.object_id.split(DELIMITER)
      const name = parts[parts.length - 1]!
      if (!isStagingName(name) || !dead(name) || !row.location) continue
      found.set(row.object_id, { id: { namespace: parts.slice(0, -1), name }, dir: row.location, inManifest: true })
    }
  }
  for (const entry of await readdir(ctx.root).catch(() => [] as string[])) {
    if (!entry.endsWith('.lance')) continue
    const name = entry.slice(0, -'.lance'.length)
    if (isStagingName(name) && dead(name) && !found.has(name)) found.set(name, { id: { namespace: [], name }, dir: entry, inManifest: false })
  }
  return [...found.values()]
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
