/** Hidden columns per table, remembered in localStorage (keyed by the table's identity). */
const PREFIX = 'lcb.hiddenColumns.v1:'
/** A table with a huge schema must not fill the storage quota. */
const MAX_NAMES = 2000

export function loadHiddenColumns(identity: string): string[] {
  try {
    const value: unknown = JSON.parse(window.localStorage.getItem(PREFIX + identity) ?? '[]')
    return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : []
  } catch {
    return []
  }
}

export function saveHiddenColumns(identity: string, hidden: readonly string[]): void {
  try {
    if (hidden.length === 0) window.localStorage.removeItem(PREFIX + identity)
    else window.localStorage.setItem(PREFIX + identity, JSON.stringify(hidden.slice(0, MAX_NAMES)))
  } catch {
    // Storage refused (quota, private window): the choice holds for this view, it is just not remembered.
  }
}
