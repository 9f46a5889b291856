import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'
import type { AppErrorData, TableRef } from '../../../contract'
import { namespaceKey, tableKey } from '../../lib/nodeKeys'
import { nextSelection, type Selection, type TreeWrite } from './selection'

export type { Selection } from './selection'

/**
 * Where the user is in the window: what is selected (a table or a namespace), whether the start screen shows
 * (and why, when opening a catalog failed), and which namespaces of the tree are expanded. Features read and move
 * it through `useNavigation()`; none of them owns it.
 */
export interface Navigation {
  selection: Selection
  selectTable(ref: TableRef): void
  selectNamespace(connectionId: string, namespace: readonly string[]): void
  /** Open a new query view over a catalog (**New query**). */
  openQuery(connectionId: string): void
  clearSelection(): void
  /** After a write from the tree: never leave a dropped table or namespace selected; follow a renamed table. */
  afterTreeWrite(write: TreeWrite): void
  /** The start screen, asked for (the "+" button, a failed open) with the error it shows; a catalog being opened. */
  start: StartState
  showStart(error?: AppErrorData | null): void
  hideStart(): void
  setOpening(opening: boolean): void
  expanded: ReadonlySet<string>
  expand(connectionId: string, namespace: readonly string[]): void
  collapse(key: string): void
  /** Show a table: its namespace and every one above it expanded, the table selected, the start screen gone. */
  reveal(ref: TableRef): void
}

interface StartState {
  shown: boolean
  error: AppErrorData | null
  opening: boolean
}

/** Query views opened in this window: each new one gets its own key (and its own draft). */
let queriesOpened = 0

const NavigationContext = createContext<Navigation | null>(null)

export function useNavigation(): Navigation {
  const navigation = useContext(NavigationContext)
  if (!navigation) throw new Error('useNavigation needs a NavigationProvider')
  return navigation
}

export function NavigationProvider({ initialConnectionId, children }: { initialConnectionId?: string; children: ReactNode }) {
  // Start on the catalog opened at start (the demo catalog in the app), not on the start screen.
  const [selection, setSelection] = useState<Selection>(() => (initialConnectionId ? { kind: 'namespace', key: namespaceKey(initialConnectionId, []), connectionId: initialConnectionId, namespace: [] } : null))
  const [start, setStart] = useState<StartState>({ shown: false, error: null, opening: false })
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set())

  const expand = useCallback((connectionId: string, namespace: readonly string[]) => {
    const key = namespaceKey(connectionId, namespace)
    setExpanded((previous) => (previous.has(key) ? previous : new Set(previous).add(key)))
  }, [])
  const collapse = useCallback((key: string) => {
    setExpanded((previous) => {
      const next = new Set(previous)
      next.delete(key)
      return next
    })
  }, [])
  const selectTable = useCallback((ref: TableRef) => {
    const namespace = [...ref.namespace]
    setSelection({ kind: 'table', key: tableKey(ref.connectionId, namespace, ref.name), ref: { connectionId: ref.connectionId, namespace, name: ref.name } })
  }, [])
  const selectNamespace = useCallback((connectionId: string, namespace: readonly string[]) => {
    setSelection({ kind: 'namespace', key: namespaceKey(connectionId, namespace), connectionId, namespace: [...namespace] })
  }, [])
  const openQuery = useCallback((connectionId: string) => {
    queriesOpened += 1
    setStart((previous) => ({ ...previous, shown: false, error: null }))
    setSelection({ kind: 'query', key: `query:${connectionId}:${queriesOpened}`, connectionId })
  }, [])
  const reveal = useCallback(
    (ref: TableRef) => {
      for (let depth = 0; depth <= ref.namespace.length; depth++) expand(ref.connectionId, ref.namespace.slice(0, depth))
      setStart((previous) => ({ ...previous, shown: false, error: null }))
      selectTable(ref)
    },
    [expand, selectTable],
  )

  const value = useMemo<Navigation>(
    () => ({
      selection,
      selectTable,
      selectNamespace,
      openQuery,
      clearSelection: () => setSelection(null),
      afterTreeWrite: (write) => setSelection((current) => nextSelection(current, write)),
      start,
      showStart: (error = null) => setStart((previous) => ({ ...previous, shown: true, error })),
      hideStart: () => setStart((previous) => ({ ...previous, shown: false, error: null })),
      // Opening again clears the last failure's message.
      setOpening: (opening) => setStart((previous) => ({ ...previous, opening, error: opening ? null : previous.error })),
      expanded,
      expand,
      collapse,
      reveal,
    }),
    [selection, selectTable, selectNamespace, openQuery, start, expanded, expand, collapse, reveal],
  )
  return <NavigationContext.Provider value={value}>{children}</NavigationContext.Provider>
}
