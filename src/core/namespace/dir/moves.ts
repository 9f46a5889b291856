import { existsSync } from 'node:fs'
import { readdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { AppError } from '../../../contract'
import { clearIntent, recordIntent, type Intent } from './journal'
import { asideDirName } from './staging'
import { formatTableId, type TableId } from '../path'
import { tableDirFor, tableObjectId, type CatalogManifest } from './manifest'

/**
 * Renaming, publishing and swapping tables of a directory catalog, so that an interruption at any point leaves
 * each table listed exactly once (old or new name, never both, never none) once the catalog is opened again.
 *
 * How lancedb 0.31.0 finds tables decides the steps (measured): a ROOT table is the directory `{name}.lance`
 * (directory listing; its manifest row is bookkeeping that drop uses); a table of a CHILD namespace is its
 * `__manifest` row (`object_id` `ns$name`, `location` any directory). So:
 * - child → child: one manifest commit rewrites the row's `object_id` (the directory stays). Atomic.
 * - root → root: one `rename(2)` of `{old}.lance` to `{new}.lance` is the visible, atomic step; the row is
 *   updated after it. A journal entry written first lets the next open finish the row update.
 * - child → root: the row moves first (`ns$t` → `new`, leaving the child listing), then the directory is renamed
 *   to `{new}.lance` (appearing at the root); the journal rolls an interrupted move forward.
 * - root → child: the directory is renamed out of the listing first, then the row moves into the namespace.
 * Publishing a staged table is such a rename; overwrite swaps (see {@link swapTables}).
 */
export interface MoveContext {
  root: string
  manifest: CatalogManifest | null
}

export async function moveTable(ctx: MoveContext, from: TableId, to: TableId, fromDir: string): Promise<void> {
  const toDir = to.namespace.length === 0 ? `${to.name}.lance` : from.namespace.length > 0 ? fromDir : tableDirFor(to)
  if (fromDir === toDir && from.namespace.length > 0) {
    // Child → child: the row is the table; one commit moves it.
    const moved = await ctx.manifest!.moveRow(tableObjectId(from), tableObjectId(to))
    if (moved !== 1) throw new AppError('not_found', `Table ${formatTableId(from)} does not exist`, { hint: 'Refresh the tree' })
    return
  }
  const intent: Intent = { op: 'move', from, to, fromDir, toDir }
  const file = await recordIntent(ctx.root, intent)
  await applyMove(ctx, intent)
  await clearIntent(file)
}

/** The steps of a move, each skipped when already done, so a journal entry can be replayed (rolled forward). */
export async function applyMove(ctx: MoveContext, intent: Extract<Intent, { op: 'move' }>): Promise<void> {
  const { from, to, fromDir, toDir } = intent
  const fromPath = join(ctx.root, fromDir)
  const toPath = join(ctx.root, toDir)
  const moveDir = async () => {
    if (fromDir !== toDir && existsSync(fromPath) && !existsSync(toPath)) await rename(fromPath, toPath)
  }
  const moveRow = async () => {
    if (!ctx.manifest?.exists) return
    const fromRows = await ctx.manifest.find(tableObjectId(from))
    if (fromRows.some((r) => r.object_type === 'table')) {
      await ctx.manifest.moveRow(tableObjectId(from), tableObjectId(to), toDir)
    } else if (!(await ctx.manifest.find(tableObjectId(to))).some((r) => r.object_type === 'table')) {
      await ctx.manifest.addTable(tableObjectId(to), toDir) // a root table that had no row
    }
  }
  if (from.namespace.length === 0) {
    await moveDir()
    await moveRow()
  } else {
    await moveRow()
    await moveDir()
  }
}

/**
 * Replace `target`'s data with the complete table `staging` (same namespace); the old data is removed.
 * Child namespace: one merge-insert commit exchanges the two rows' locations, then the staging name (now
 * holding the old data) is dropped. Root: the journal records the swap, `{target}.lance` is renamed aside (out
 * of the listing), the staging directory renamed to `{target}.lance`, and the old directory removed; an
 * interrupted swap is rolled forward on the next open.
 */
export async function swapTables(ctx: MoveContext, target: TableId, staging: TableId, dropStaging: () => Promise<void>): Promise<void> {
  if (target.namespace.length > 0) {
    const [a] = (await ctx.manifest!.find(tableObjectId(target))).filter((r) => r.object_type === 'table')
    const [b] = (await ctx.manifest!.find(tableObjectId(staging))).filter((r) => r.object_type === 'table')
    if (!a || !b) throw new AppError('not_found', `Table ${formatTableId(a ? staging : target)} does not exist`)
    await ctx.manifest!.swapLocations(a, b)
    await dropStaging()
    return
  }
  const intent: Intent = {
    op: 'swap',
    target,
    staging,
    targetDir: `${target.name}.lance`,
    stagingDir: `${staging.name}.lance`,
    asideDir: asideDirName(target.name),
  }
  const file = await recordIntent(ctx.root, intent)
  await applySwap(ctx, intent)
  await clearIntent(file)
}

export async function applySwap(ctx: MoveContext, intent: Extract<Intent, { op: 'swap' }>): Promise<void> {
  const targetPath = join(ctx.root, intent.targetDir)
  const stagingPath = join(ctx.root, intent.stagingDir)
  const asidePath = join(ctx.root, intent.asideDir)
  if (existsSync(stagingPath)) {
    if (existsSync(targetPath) && !existsSync(asidePath)) await rename(targetPath, asidePath)
    if (!existsSync(targetPath)) await rename(stagingPath, targetPath)
  }
  if (ctx.manifest?.exists) {
    await ctx.manifest.deleteRow(tableObjectId(intent.staging))
    if (!(await ctx.manifest.find(tableObjectId(intent.target))).some((r) => r.object_type === 'table')) {
      await ctx.manifest.addTable(tableObjectId(intent.target), intent.targetDir)
    }
  }
  await rm(asidePath, { recursive: true, force: true })
}

/** Set-aside directories of swaps whose journal entry is gone (removed after the swap) — safe to delete. */
export async function asideLeftovers(root: string): Promise<string[]> {
  const names = await readdir(root).catch(() => [] as string[])
  return names.filter((n) => n.startsWith('.lcb-replaced-'))
}

/** One write at a time per catalog root in this process (the manifest checks and writes must not interleave). */
const tails = new Map<string, Promise<unknown>>()

export function serialized<T>(root: string, work: () => Promise<T>): Promise<T> {
  const tail = tails.get(root) ?? Promise.resolve()
  const run = tail.then(work, work)
  const next = run.catch(() => undefined)
  tails.set(root, next)
  void next.then(() => {
    if (tails.get(root) === next) tails.delete(root)
  })
  return run
}
