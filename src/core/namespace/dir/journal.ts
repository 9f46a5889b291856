import { randomBytes } from 'node:crypto'
import { mkdir, open, readdir, readFile, rename, rm, rmdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { isAlive } from '../../procStat'
import type { TableId } from '../path'

/**
 * Write intents, recorded durably before a multi-step write so that the next open of the catalog can finish or
 * undo it after a crash (`kill -9`, power loss). They live NEXT TO THE CATALOG, in `{root}/.lcb-journal/`:
 * whoever opens the catalog next — the app, the harness, our server, another machine on a shared disk — finds
 * them, and no app data folder is needed (the server and the harness have none). lancedb ignores the folder
 * (it lists only `*.lance` directories and `__manifest`).
 */
export const JOURNAL_DIR = '.lcb-journal'

export type Intent =
  /** Rename / publish that moves a table directory: roll forward (see dir/moves.ts). */
  | { op: 'move'; from: TableId; to: TableId; fromDir: string; toDir: string }
  /** Overwrite of a root table: staging directory swapped in, the old one set aside then removed. */
  | { op: 'swap'; target: TableId; staging: TableId; targetDir: string; stagingDir: string; asideDir: string }
  /** An import appending to `table`, which had `version` before: an interrupted one is rolled back. */
  | { op: 'append'; table: TableId; version: number }

export interface JournalEntry {
  file: string
  pid: number
  startedAt: number
  intent: Intent
}

export function journalDir(root: string): string {
  return join(root, JOURNAL_DIR)
}

/** Record `intent` (written to a temp file, fsynced, renamed into place); returns the entry's file path. */
export async function recordIntent(root: string, intent: Intent): Promise<string> {
  const dir = journalDir(root)
  await mkdir(dir, { recursive: true })
  const name = `${Date.now()}-${process.pid}-${randomBytes(4).toString('hex')}.json`
  const temp = join(dir, `.${name}.tmp`)
  const entry = { pid: process.pid, startedAt: Date.now(), intent }
  // Another writer's clearIntent may remove the (empty) folder between our mkdir and open: make it again.
  const handle = await open(temp, 'w').catch(async () => {
    await mkdir(dir, { recursive: true })
    return open(temp, 'w')
  })
  try {
    await handle.writeFile(JSON.stringify(entry))
    await handle.sync()
  } finally {
    await handle.close()
  }
  const file = join(dir, name)
  await rename(temp, file)
  await syncDir(dir)
  return file
}

export async function clearIntent(file: string): Promise<void> {
  await rm(file, { force: true })
  // Leave the catalog as it was: the folder goes when it is empty (another writer's entry keeps it).
  await rmdir(dirname(file)).catch(() => undefined)
}

/** What crashed writers left in the journal folder, found without writing anything. */
export interface JournalScan {
  /** Entries of processes that are gone (a live process's entries belong to writes in flight). */
  entries: JournalEntry[]
  /** Records cut short before their rename (the write they announced never started) and unreadable files. */
  junk: string[]
}

export async function scanJournal(root: string): Promise<JournalScan> {
  const scan: JournalScan = { entries: [], junk: [] }
  let names: string[]
  try {
    names = await readdir(journalDir(root))
  } catch {
    return scan
  }
  for (const name of names.sort()) {
    const file = join(journalDir(root), name)
    if (name.endsWith('.tmp')) {
      // `.<time>-<pid>-<random>.json.tmp`: a live writer is between its write and its rename; leave it that moment.
      const match = /^\.(\d+)-(\d+)-/.exec(name)
      if (!match || !isAlive(Number(match[2]), Number(match[1]))) scan.junk.push(file)
      continue
    }
    if (!name.endsWith('.json')) continue
    try {
      const parsed = JSON.parse(await readFile(file, 'utf8')) as Omit<JournalEntry, 'file'>
      if (!isAlive(parsed.pid, parsed.startedAt)) scan.entries.push({ ...parsed, file })
    } catch {
      scan.junk.push(file) // unreadable: written by rename only, so never half a record
    }
  }
  return scan
}

/** {@link scanJournal}, then remove its junk: the entries to finish or undo. */
export async function abandonedIntents(root: string): Promise<JournalEntry[]> {
  const { entries, junk } = await scanJournal(root)
  for (const file of junk) await rm(file, { force: true })
  // A writer killed between its mkdir and its record leaves the folder empty: leave the catalog as it was
  // (a live writer whose folder this removes makes it again, see recordIntent).
  if (entries.length === 0) await rmdir(journalDir(root)).catch(() => undefined)
  return entries
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  } catch {
    // Not every platform can fsync a directory (Windows); the rename is still atomic.
  }
}
