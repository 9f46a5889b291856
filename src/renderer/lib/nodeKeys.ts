/**
 * The identity of a node of the tree — a namespace or a table of one connection — as one string: the tree's rows,
 * the selection and the navigation all name nodes by it.
 */
export function namespaceKey(connectionId: string, namespace: readonly string[]): string {
  return `n:${JSON.stringify([connectionId, ...namespace])}`
}

export function tableKey(connectionId: string, namespace: readonly string[], name: string): string {
  return `t:${JSON.stringify([connectionId, ...namespace, name])}`
}
