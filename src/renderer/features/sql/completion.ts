import type { Completion } from '@codemirror/autocomplete'
import type { SQLNamespace } from '@codemirror/lang-sql'
import type { SqlNames } from '../../../contract'

/**
 * The editor's completion schema from a catalog's names (`sql/names`): namespaces nest (`ns.sub.table`), a
 * table's children are its columns (with their types as detail), and the root namespace's tables stand at the
 * top, unqualified, as the engine reads them. Names are completed as they are; lang-sql quotes the ones that need it.
 */
export function completionSchema(names: SqlNames): SQLNamespace {
  const root: { [name: string]: SQLNamespace } = {}
  const namespaceAt = (path: readonly string[]) => {
    let level = root
    for (const part of path) {
      const existing = level[part]
      if (!existing || Array.isArray(existing) || 'children' in existing) level[part] = {}
      level = level[part] as { [name: string]: SQLNamespace }
    }
    return level
  }
  for (const namespace of names.namespaces) namespaceAt(namespace)
  for (const table of names.tables) {
    const columns: Completion[] = table.columns.map((c) => ({ label: c.name, type: 'property', detail: c.type }))
    namespaceAt(table.namespace)[table.name] = { self: { label: table.name, type: 'type', detail: 'table' }, children: columns }
  }
  return root
}
