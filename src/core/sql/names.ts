import type { SqlNames } from '../../contract'
import type { NamespaceClient } from '../namespace/client'

/** Most tables the editor's completion lists (each is described for its columns). */
const MAX_TABLES = 300
/** Namespaces deeper than this are not walked (DuckDB's names reach two levels; deeper ones go through lance()). */
const MAX_DEPTH = 4

/** The catalog's namespaces, tables and columns, walked breadth-first up to the caps, for completion. */
export async function catalogNames(client: NamespaceClient): Promise<SqlNames> {
  const names: SqlNames = { namespaces: [], tables: [], truncated: false }
  const queue: string[][] = [[]]
  while (queue.length > 0) {
    const namespace = queue.shift()!
    const [children, tables] = await Promise.all([
      client.listNamespaces(namespace, { limit: 1000 }).catch(() => ({ items: [] as string[], pageToken: undefined })),
      client.listTables(namespace, { limit: 1000 }).catch(() => ({ items: [] as string[], pageToken: undefined })),
    ])
    if (children.pageToken || tables.pageToken) names.truncated = true
    for (const child of children.items) {
      const path = [...namespace, child]
      names.namespaces.push(path)
      if (path.length < MAX_DEPTH) queue.push(path)
      else names.truncated = true
    }
    for (const name of tables.items) {
      if (names.tables.length >= MAX_TABLES) {
        names.truncated = true
        break
      }
      names.tables.push({ namespace, name, columns: [] })
    }
  }
  // Columns, a few tables at a time.
  for (let i = 0; i < names.tables.length; i += 8) {
    await Promise.all(
      names.tables.slice(i, i + 8).map(async (table) => {
        const description = await client.describeTable({ namespace: table.namespace, name: table.name }).catch(() => null)
        table.columns = description?.fields.map((f) => ({ name: f.name, type: f.type })) ?? []
      }),
    )
  }
  return names
}
