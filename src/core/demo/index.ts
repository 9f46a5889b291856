import { randomUUID } from 'node:crypto'
import { readdir, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { Field, Float64, Int64, Schema, Utf8 } from 'apache-arrow'
import { AppError } from '../../contract'
import { DirNamespaceClient } from '../namespace/dir'
import { MANIFEST_DIR } from '../namespace/dir/root'
import { albumsTable, eventsTable, imagesTable, kindsTable, photosTable, welcomeTable } from './tables'

export { IMAGE_ROWS, PHOTO_ROWS, PHOTO_VECTOR_DIMENSION, imageKindOf, imagesTable } from './tables'

/** Where each demo table lives (namespace path, name). */
export const DEMO_TABLES = {
  photos: { namespace: ['demo', 'images', '2024'], name: 'photos' },
  albums: { namespace: ['demo', 'images'], name: 'albums' },
  kinds: { namespace: ['samples'], name: 'kinds' },
  pictures: { namespace: ['samples'], name: 'pictures' },
  empty: { namespace: ['samples'], name: 'empty' },
  events: { namespace: ['analytics'], name: 'events' },
  welcome: { namespace: [], name: 'welcome' },
} as const

export const DEMO_NAMESPACES = [['demo'], ['demo', 'images'], ['demo', 'images', '2024'], ['samples'], ['analytics']] as const

const building = new Map<string, Promise<{ root: string; created: boolean }>>()

/**
 * Make the demo catalog at `root` unless it is already there. Idempotent and safe if interrupted:
 * the catalog is built in a sibling directory and renamed into place at the end, so `root` is either
 * absent or complete. (Lance stores table locations relative to the root, so the rename is safe.)
 */
export function ensureDemoCatalog(root: string): Promise<{ root: string; created: boolean }> {
  let pending = building.get(root)
  if (!pending) {
    pending = build(root).finally(() => building.delete(root))
    building.set(root, pending)
  }
  return pending
}

async function build(root: string): Promise<{ root: string; created: boolean }> {
  if (await isDirectory(join(root, MANIFEST_DIR))) return { root, created: false }
  if (await isDirectory(root)) {
    if ((await readdir(root)).length > 0) {
      throw new AppError('conflict', `${root} exists and is not a demo catalog; it was left untouched`, { hint: 'Move it away to get the demo catalog again' })
    }
    await rm(root, { recursive: true })
  }
  const prefix = `.${basename(root)}.building-`
  await removeLeftovers(dirname(root), prefix)
  const staging = join(dirname(root), `${prefix}${randomUUID()}`)
  try {
    const client = await DirNamespaceClient.open(staging, { create: true })
    try {
      await fill(client)
    } finally {
      await client.close()
    }
    try {
      await rename(staging, root)
    } catch (error) {
      // Another process finished first: keep its catalog.
      if (await isDirectory(join(root, MANIFEST_DIR))) return { root, created: false }
      throw error
    }
    return { root, created: true }
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

async function fill(client: DirNamespaceClient): Promise<void> {
  for (const namespace of DEMO_NAMESPACES) await client.createNamespace(namespace)
  const t = DEMO_TABLES
  await client.createTable(t.photos, photosTable())
  await client.createTable(t.albums, albumsTable())
  await client.createTable(t.kinds, kindsTable())
  await client.createTable(t.pictures, imagesTable())
  await client.createEmptyTable(
    t.empty,
    new Schema([new Field('id', new Int64(), false), new Field('name', new Utf8(), true), new Field('value', new Float64(), true)]),
  )
  await client.createTable(t.events, eventsTable())
  await client.createTable(t.welcome, welcomeTable())
}

/** Staging directories of interrupted runs (this process's own are gone by now). */
async function removeLeftovers(parent: string, prefix: string): Promise<void> {
  let entries: string[]
  try {
    entries = await readdir(parent)
  } catch {
    return
  }
  await Promise.all(entries.filter((e) => e.startsWith(prefix)).map((e) => rm(join(parent, e), { recursive: true, force: true })))
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}
