import { listAll, type NamespaceClient } from '../namespace/client'
import type { NamespacePath } from '../namespace/path'

export interface NamespaceContents {
  /** Child namespaces at any depth, as paths relative to the namespace (`a/b`). */
  namespaces: string[]
  /** Tables at any depth, as paths relative to the namespace (`a/t`). */
  tables: string[]
  /** More exist than `limit` (the lists are the first ones found). */
  truncated: boolean
}

/**
 * Everything a cascading drop of `namespace` would delete, deepest last, up to `limit` entries
 * (bounded work for the confirmation dialog; the drop itself is not bounded).
 */
export async function namespaceContents(client: NamespaceClient, namespace: NamespacePath, limit = 500): Promise<NamespaceContents> {
  const out: NamespaceContents = { namespaces: [], tables: [], truncated: false }
  const walk = async (ns: NamespacePath, prefix: string): Promise<void> => {
    for (const table of await listAll((o) => client.listTables(ns, o))) {
      if (out.namespaces.length + out.tables.length >= limit) {
        out.truncated = true
        return
      }
      out.tables.push(`${prefix}${table}`)
    }
    for (const child of await listAll((o) => client.listNamespaces(ns, o))) {
      if (out.namespaces.length + out.tables.length >= limit) {
        out.truncated = true
        return
      }
      out.namespaces.push(`${prefix}${child}`)
      await walk([...ns, child], `${prefix}${child}/`)
      if (out.truncated) return
    }
  }
  await walk(namespace, '')
  return out
}
