import { operationLabels, type CapabilitySnapshot, type Operation } from '../../../contract'

/** What a tree item's context menu can do. */
export type TreeActionId = 'create-namespace' | 'drop-namespace' | 'rename-table' | 'drop-table' | 'refresh' | 'create-table' | 'drop-namespace-cascade' | 'namespace-properties' | 'open-new-tab'

export interface TreeActionTarget {
  kind: 'connection' | 'namespace' | 'table'
  connectionId: string
  /** The namespace itself (connection, namespace) or the one holding the table. */
  namespace: string[]
  name: string
}

export interface MenuItem {
  id: TreeActionId
  label: string
  /** The server operation behind it (absent: nothing is written). */
  operation?: Operation
  disabled: boolean
  /** Why it is disabled, in words (tooltip and accessible description). */
  reason?: string
}

const ITEMS: Record<TreeActionTarget['kind'], { id: TreeActionId; label: string; operation?: Operation }[]> = {
  connection: [
    { id: 'create-namespace', label: 'New namespace…', operation: 'namespace.create' },
    { id: 'create-table', label: 'New table…', operation: 'table.create' },
    { id: 'refresh', label: 'Refresh' },
  ],
  namespace: [
    { id: 'create-namespace', label: 'New namespace…', operation: 'namespace.create' },
    { id: 'create-table', label: 'New table…', operation: 'table.create' },
    { id: 'drop-namespace', label: 'Drop namespace…', operation: 'namespace.drop' },
    { id: 'refresh', label: 'Refresh' },
  ],
  table: [
    { id: 'rename-table', label: 'Rename table…', operation: 'table.rename' },
    { id: 'drop-table', label: 'Drop table…', operation: 'table.drop' },
    // Last: the menu's first item (focused when it opens) stays what it was.
    { id: 'open-new-tab', label: 'Open in new tab' },
  ],
}

/** Why an operation cannot be used on this connection, or undefined when it may be. */
export function unsupportedReason(capabilities: CapabilitySnapshot | null | undefined, operation: Operation): string | undefined {
  const entry = capabilities?.[operation]
  if (!entry || entry.supported !== false) return undefined
  // A reason that names the operation itself is already a whole sentence (a catalog on object storage says why).
  if (entry.reason?.toLowerCase().startsWith(operationLabels[operation])) return entry.reason
  const what = `This server does not support ${operationLabels[operation]}`
  return entry.reason ? `${what}: ${entry.reason}` : what
}

/** What a namespace holds, as far as the app knows (the tree's loaded listing, or a check on menu open). */
export interface NamespaceContents {
  namespaces: number
  tables: number
  /** More than counted (a check reads one item of each kind). */
  atLeast?: boolean
}

/** Why a namespace cannot be dropped because it is not empty, or undefined when it is (or is not known). */
export function notEmptyReason(contents: NamespaceContents | undefined): string | undefined {
  if (!contents || contents.namespaces + contents.tables === 0) return undefined
  // A check on menu open reads one item of each kind: it knows "some", not how many.
  const plural = (n: number, one: string, many: string) => (contents.atLeast ? many : `${n} ${n === 1 ? one : many}`)
  const parts = [contents.namespaces > 0 && plural(contents.namespaces, 'namespace', 'namespaces'), contents.tables > 0 && plural(contents.tables, 'table', 'tables')].filter(Boolean)
  return `Not empty: it holds ${parts.join(' and ')}; only an empty namespace can be dropped`
}

/**
 * The context menu of a tree item. `capabilities` is the connection's capability map
 * (null for a directory: everything works; undefined: not known yet, so nothing is disabled).
 * `contents` is what the namespace holds, when known: Drop namespace… is disabled on a non-empty one.
 */
export function menuItemsFor(target: TreeActionTarget, capabilities: CapabilitySnapshot | null | undefined, contents?: NamespaceContents): MenuItem[] {
  return ITEMS[target.kind].map((item) => {
    const reason = (item.operation ? unsupportedReason(capabilities, item.operation) : undefined) ?? (item.id === 'drop-namespace' ? notEmptyReason(contents) : undefined)
    return { ...item, disabled: reason !== undefined, ...(reason ? { reason } : {}) }
  })
}

/** The namespace whose listing changes after the action (the tree reloads it). */
export function affectedNamespace(action: TreeActionId, target: TreeActionTarget): string[] {
  if (action === 'drop-namespace') return target.namespace.slice(0, -1)
  return target.namespace
}

/**
 * A namespace's menu once its contents are known: "Drop namespace…" (empty only) is disabled with the reason
 * when it holds something, and "Drop namespace and contents…" (cascade) is offered instead; "Properties…" shows
 * what describe answers.
 */
export function withNamespaceContents(items: MenuItem[], contents: { namespaces: string[]; tables: string[]; truncated: boolean } | undefined): MenuItem[] {
  const out = items.map((item) => {
    if (item.id !== 'drop-namespace' || !contents || item.disabled) return item
    const n = contents.tables.length
    const m = contents.namespaces.length
    if (n + m === 0) return item
    const more = contents.truncated ? ' or more' : ''
    const what = [n ? `${n}${more} table${n === 1 ? '' : 's'}` : '', m ? `${m}${more} namespace${m === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ')
    return { ...item, disabled: true, reason: `Not empty: holds ${what}. Use “Drop namespace and contents…”` }
  })
  const drop = out.findIndex((i) => i.id === 'drop-namespace')
  if (drop >= 0) {
    const base = out[drop]!
    const blocked = base.reason && !base.reason.startsWith('Not empty') ? base.reason : undefined
    out.splice(drop + 1, 0, { id: 'drop-namespace-cascade', label: 'Drop namespace and contents…', operation: 'namespace.drop', disabled: !!blocked, ...(blocked ? { reason: blocked } : {}) })
    out.splice(out.length - 1, 0, { id: 'namespace-properties', label: 'Properties…', disabled: false })
  }
  return out
}
