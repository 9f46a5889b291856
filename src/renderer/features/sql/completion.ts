import type { Completion } from '@codemirror/autocomplete'
import type { SQLNamespace } from '@codemirror/lang-sql'
import type { SqlNames } from '../../../contract'

type Level = { [name: string]: SQLNamespace }
type Node = { self: Completion; children: SQLNamespace }

/**
 * The editor's completion schema from a catalog's names (`sql/names`): namespaces nest (`ns.sub.table`), a
 * table's children are its columns (with their types as detail), and the root namespace's tables stand at the
 * top, unqualified, as the engine reads them. Names are completed as they are; lang-sql quotes the ones that need it.
 */
export function completionSchema(names: SqlNames): SQLNamespace {
  const root: Level = {}
  const namespaceAt = (path: readonly string[]): Level => {
    let level = root
    for (const part of path) {
      let node = level[part] as Node | undefined
      if (!node || Array.isArray(node.children)) {
        node = { self: { label: part, type: 'namespace', detail: 'namespace' }, children: {} }
        level[part] = node
      }
      level = node.children as Level
    }
    return level
  }
  for (const namespace of names.namespaces) namespaceAt(namespace)
  for (const table of names.tables) {
    const columns: Completion[] = table.columns.map((c) => ({ label: c.name, type: 'property', detail: c.type }))
    const level = namespaceAt(table.namespace)
    // A namespace and a table of one name: the namespace keeps its place (its tables complete below it).
    if (!level[table.name]) level[table.name] = { self: { label: table.name, type: 'type', detail: 'table' }, children: columns }
  }
  return root
}
