import { AppError, componentProblem, type NamespacePath } from '../../contract'

export type { NamespacePath }

/** A table's full identity inside one catalog. */
export interface TableId {
  namespace: NamespacePath
  name: string
}

/** Throw `invalid_input` unless `value` is a valid component. `what` names it in the message. */
export function assertComponent(value: unknown, what = 'name'): asserts value is string {
  const problem = componentProblem(value)
  if (problem) throw new AppError('invalid_input', `Invalid ${what} ${shown(value)}: ${problem}`)
}

/** A value quoted for a message, cut short: a bad name may be kilobytes long. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

/** Validate every component of a namespace path (the path-traversal guard at each boundary). */
export function assertNamespacePath(path: unknown): asserts path is NamespacePath {
  if (!Array.isArray(path)) throw new AppError('invalid_input', 'Invalid namespace: must be a list of names')
  path.forEach((component, i) => assertComponent(component, `namespace component ${i + 1}`))
}

export function assertTableId(id: TableId): void {
  assertNamespacePath(id.namespace)
  assertComponent(id.name, 'table name')
}

/** Human form of a path: `demo/images/2024`, or `(root)` for the root namespace. */
export function formatNamespace(path: NamespacePath): string {
  return path.length === 0 ? '(root)' : path.join('/')
}

export function formatTableId(id: TableId): string {
  return [...id.namespace, id.name].join('/')
}
