import { existsSync } from 'node:fs'
import { mkdir, realpath, rename, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve, sep } from 'node:path'
import { AppError } from '../../../contract'
import { WireCodedError } from '../errors'
import { formatTableId, type TableId } from '../path'
import { tableObjectId, type CatalogManifest } from './manifest'

/** Where deregistered ROOT tables are kept: a hidden folder lancedb does not list (it lists only `{root}/*.lance`). */
export const DEREGISTERED_DIR = '.deregistered'

export interface RegisterContext {
  root: string
  manifest: CatalogManifest | null
}

/** 400, wire code 13: the contract's "invalid input" for a location (never echoes the server's paths). */
const badLocation = (message: string, hint?: string) => new WireCodedError('invalid_input', message, 13, { hint })

/**
 * The directory `location` names, relative to the catalog root (what a manifest row holds). Refused: anything
 * outside the root (`..`, absolute paths elsewhere, symlinks that lead out — resolved with realpath), the root
 * itself, the catalog's own bookkeeping, and a directory that is not a Lance dataset (no `_versions`).
 */
export async function locationInsideRoot(root: string, location: string): Promise<string> {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(location) && !location.startsWith('file://')) throw badLocation('This server registers directories inside its catalog only', 'Give a path relative to the catalog root')
  const given = location.startsWith('file://') ? location.slice('file://'.length) : location
  const realRoot = await realpath(root)
  const real = await realpath(isAbsolute(given) ? resolve(given) : resolve(realRoot, given)).catch(() => null)
  const rel = real === null ? null : relative(realRoot, real)
  if (rel !== null && (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))) throw badLocation('The location is outside the catalog root', 'Register a dataset directory inside the catalog')
  if (rel === null) {
    // Tell "outside" from "missing" without touching the file system outside the root.
    const lexical = relative(realRoot, isAbsolute(given) ? resolve(given) : resolve(realRoot, given))
    if (lexical === '' || lexical.startsWith('..') || isAbsolute(lexical)) throw badLocation('The location is outside the catalog root', 'Register a dataset directory inside the catalog')
    throw badLocation('There is no directory at that location', 'Give a path relative to the catalog root')
  }
  const first = rel.split(sep)[0]!
  if (first === '__manifest' || first.startsWith('.lcb')) throw badLocation('That location is the catalog’s own bookkeeping, not a table')
  if (!(await stat(real!)).isDirectory() || !existsSync(join(real!, '_versions'))) throw badLocation('That location is not a Lance dataset (it has no _versions directory)')
  return rel.split(sep).join('/')
}

/** The table (if any) whose data a relative directory already is: a root `{name}.lance`, or a manifest row's location. */
async function ownerOf(ctx: RegisterContext, rel: string): Promise<string | null> {
  if (!rel.includes('/') && rel.endsWith('.lance')) return rel.slice(0, -'.lance'.length)
  if (!ctx.manifest?.exists) return null
  const rows = await ctx.manifest.query(`object_type = 'table' AND location = '${rel.replace(/'/g, "''")}'`)
  return rows[0]?.object_id ?? null
}

/**
 * Make an existing Lance dataset directory inside the root the table `id` (the caller checked the name is free
 * and the namespace exists, under the catalog's serialized step). A child namespace's table IS its manifest row,
 * so one row is added pointing at the directory (the data stays where it is). A ROOT table is the directory
 * `{name}.lance` (lancedb 0.31 lists those), so the directory is renamed to it (one rename(2)), and a
 * bookkeeping row is added when the catalog has a manifest. Answers the table's location (relative).
 */
export async function registerTable(ctx: RegisterContext, id: TableId, location: string): Promise<string> {
  const rel = await locationInsideRoot(ctx.root, location)
  const owner = await ownerOf(ctx, rel)
  if (owner !== null) throw new WireCodedError('already_exists', `That location is already the table ${owner.split('$').join('.')}`, 5, { hint: 'Deregister it first' })
  if (id.namespace.length > 0) {
    if (!ctx.manifest?.exists) throw new AppError('unsupported', 'This catalog has no manifest, so it has no namespaces')
    await ctx.manifest.addTable(tableObjectId(id), rel)
    return rel
  }
  const dir = `${id.name}.lance`
  await rename(join(ctx.root, rel), join(ctx.root, dir))
  if (ctx.manifest?.exists && !(await ctx.manifest.find(tableObjectId(id))).some((r) => r.object_type === 'table')) await ctx.manifest.addTable(tableObjectId(id), dir)
  return dir
}

/**
 * Stop listing the table `id`; its data stays. A child namespace's table: its manifest row is deleted (one
 * commit). A ROOT table: `{name}.lance` is renamed into the hidden `.deregistered/` folder (lancedb would list
 * it otherwise), then its bookkeeping row is deleted. Answers where the data now is (relative), which
 * `register` accepts to bring it back.
 */
export async function deregisterTable(ctx: RegisterContext, id: TableId, tableDir: string): Promise<string> {
  if (id.namespace.length > 0) {
    await ctx.manifest!.deleteRow(tableObjectId(id))
    return tableDir
  }
  await mkdir(join(ctx.root, DEREGISTERED_DIR), { recursive: true })
  let aside = `${DEREGISTERED_DIR}/${id.name}.lance`
  for (let n = 2; existsSync(join(ctx.root, aside)); n++) aside = `${DEREGISTERED_DIR}/${id.name}-${n}.lance`
  if (!existsSync(join(ctx.root, tableDir))) throw new AppError('not_found', `Table ${formatTableId(id)} does not exist`)
  await rename(join(ctx.root, tableDir), join(ctx.root, aside))
  if (ctx.manifest?.exists) await ctx.manifest.deleteRow(tableObjectId(id))
  return aside
}
