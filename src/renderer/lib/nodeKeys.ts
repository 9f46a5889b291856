/**
 * The identity of a node of the tree — a namespace or a table of one connection — as one string: the tree's rows,
 * the selection and the navigation all name nodes by it. Made and read here only (the parts are JSON, so a name may
 * hold any character, a colon or a quote included).
 */
export function namespaceKey(connectionId: string, namespace: readonly string[]): string {
  return `n:${JSON.stringify([connectionId, ...namespace])}`
}

export function tableKey(connectionId: string, namespace: readonly string[], name: string): string {
  return `t:${JSON.stringify([connectionId, ...namespace, name])}`
}

/** The connection and namespace a `namespaceKey` names. */
export function parseNamespaceKey(key: string): { connectionId: string; namespace: string[] } {
  if (!key.startsWith('n:')) throw new Error(`not a namespace key: ${key}`)
  const [connectionId = '', ...namespace] = JSON.parse(key.slice(2)) as string[]
  return { connectionId, namespace }
}
