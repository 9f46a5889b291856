import { connectNamespace as lanceConnectNamespace } from '@lancedb/lancedb'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC, type Table } from 'apache-arrow'
import type { NamespaceClient } from '../../../src/core/namespace/client'
import { connectNamespace } from '../../../src/core/namespace/connect'
import '../../../src/core/namespace/dir'
import type { TableId } from '../../../src/core/namespace/path'

export interface Workspace {
  dir: string
  client: NamespaceClient
  file(name: string): string
  cleanup(): Promise<void>
}

/** A temp folder for fixtures plus a real, empty dir catalog inside it. */
export async function workspace(): Promise<Workspace> {
  const dir = await mkdtemp(join(tmpdir(), 'lcb-import-'))
  const client = await connectNamespace('dir', { root: join(dir, 'catalog'), create: 'true' })
  return {
    dir,
    client,
    file: (name) => join(dir, name),
    cleanup: async () => {
      await client.close().catch(() => undefined)
      await rm(dir, { recursive: true, force: true })
    },
  }
}

/** Every row of a table, read back through the client in pages. */
export async function readBack(client: NamespaceClient, id: TableId, pageRows = 5000): Promise<{ table: Table; rows: Record<string, unknown>[] }> {
  const { rowCount } = await client.describeTable(id)
  const rows: Record<string, unknown>[] = []
  let table: Table | null = null
  for (let offset = 0; offset < Math.max(rowCount, 1); offset += pageRows) {
    const page = tableFromIPC(await client.readPage(id, { offset, limit: pageRows }))
    table ??= page
    for (const row of page) if (row) rows.push(plain(row.toJSON()) as Record<string, unknown>)
  }
  return { table: table!, rows }
}

/** Arrow values as plain JSON-able values: BigInt as string, vectors as arrays, structs as objects. */
export function plain(value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (typeof value === 'bigint') return value.toString()
  if (typeof value === 'number') return value
  if (ArrayBuffer.isView(value)) return Array.from(value as unknown as ArrayLike<number>)
  if (typeof value === 'object' && 'toArray' in value && typeof (value as { toArray: unknown }).toArray === 'function') {
    return Array.from((value as { toArray(): ArrayLike<unknown> }).toArray(), plain)
  }
  if (typeof value === 'object' && 'toJSON' in value && typeof (value as { toJSON: unknown }).toJSON === 'function') {
    return plain((value as { toJSON(): unknown }).toJSON())
  }
  if (Array.isArray(value)) return value.map(plain)
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
  return value
}

/** Sort rows by their `id` (a string of digits after plain()) so scan order does not matter. */
export function byId(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return [...rows].sort((a, b) => {
    const x = BigInt(String(a.id))
    const y = BigInt(String(b.id))
    return x < y ? -1 : x > y ? 1 : 0
  })
}

export async function tableNames(client: NamespaceClient, namespace: string[] = []): Promise<string[]> {
  return (await client.listTables(namespace, { limit: 1000 })).items
}

/** Staging tables as lancedb itself lists them (our client hides them, so it cannot be the witness). */
export async function stagedLeftovers(client: NamespaceClient, namespace: string[] = []): Promise<string[]> {
  const db = await lanceConnectNamespace('dir', { root: (client as unknown as { root: string }).root })
  try {
    return (await db.tableNames(namespace)).filter((n) => n.startsWith('.lcb-') || n.startsWith('.import-'))
  } finally {
    db.close()
  }
}
