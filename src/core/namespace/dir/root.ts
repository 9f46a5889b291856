import { mkdir, readdir, stat } from 'node:fs/promises'
import { AppError } from '../../../contract'
import { EMPTY_ROOT_WORDS } from '../../../contract/connections'

/** How a directory holds its catalog. */
export type RootLayout =
  /** A `__manifest` table lists namespaces and tables (the layout that supports child namespaces). */
  | 'manifest'
  /** Only `<name>.lance` table directories at the root (older LanceDB layout; no child namespaces). */
  | 'tables-only'

export const MANIFEST_DIR = '__manifest'

/**
 * Look at `root` before lancedb does. `connectNamespace("dir")` creates the root directory and a
 * `__manifest` table whenever they are missing (checked on lancedb 0.31.0), so opening the wrong folder
 * would write into it. We refuse what is not a catalog instead, and only create one when asked to.
 */
export async function inspectRoot(root: string, { create = false } = {}): Promise<RootLayout> {
  let info
  try {
    info = await stat(root)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' && create) {
      await mkdir(root, { recursive: true })
      return 'manifest'
    }
    throw rootError(root, error)
  }
  if (!info.isDirectory()) {
    throw new AppError('not_a_catalog', `${root} is a file, not a directory`, { hint: 'Choose a directory that holds Lance tables' })
  }
  let entries
  try {
    entries = await readdir(root, { withFileTypes: true })
  } catch (error) {
    throw rootError(root, error)
  }
  if (entries.some((e) => e.name === MANIFEST_DIR && e.isDirectory())) return 'manifest'
  if (entries.some((e) => e.isDirectory() && e.name.endsWith('.lance'))) return create ? 'manifest' : 'tables-only'
  if (create) return 'manifest'
  if (entries.length === 0) {
    throw new AppError('not_a_catalog', `${root} ${EMPTY_ROOT_WORDS}`, {
      hint: 'Create a catalog here, or choose a directory that holds Lance tables (a __manifest folder or *.lance folders)',
    })
  }
  throw new AppError('not_a_catalog', `${root} does not hold a Lance catalog (no __manifest and no *.lance tables)`, {
    hint: 'Choose a directory that holds Lance tables',
  })
}

function rootError(root: string, error: unknown): AppError {
  const code = (error as NodeJS.ErrnoException).code
  const detail = error instanceof Error ? error.message : String(error)
  if (code === 'ENOENT') return new AppError('not_found', `Directory ${root} does not exist`, { hint: 'Choose another directory', detail, cause: error })
  if (code === 'ENOTDIR') return new AppError('not_a_catalog', `${root} is not a directory`, { hint: 'Choose a directory that holds Lance tables', detail, cause: error })
  if (code === 'EACCES' || code === 'EPERM') {
    return new AppError('permission_denied', `Permission denied reading ${root}`, {
      hint: 'Check the folder permissions, or choose another directory',
      detail,
      cause: error,
    })
  }
  return new AppError('internal', `Cannot read ${root}: ${detail}`, { detail, cause: error })
}
