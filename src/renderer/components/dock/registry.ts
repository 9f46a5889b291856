import type { ComponentType, ReactNode } from 'react'
import type { DiffResult, TableInfo, TableRef, TableViewSpec, VectorSearch } from '../../../contract'
import type { InspectionStore } from './inspection'

/**
 * What features contribute to a table view, so that the table view imports none of them: panels for its docks,
 * sheets opened from its toolbar (Export…) and the grid's header strip (histograms). Filled once at start-up by
 * `renderer/panels.ts` (App imports it before the first render); read by every table view. The registry holds
 * only definitions: which panels are open, and the dock sizes, belong to each view (two views in a split keep
 * their own).
 */

export type DockSide = 'right' | 'bottom'

/**
 * What opens a panel that has no toolbar button, from the view's own state: `inspect` while the grid (or gallery)
 * inspects a cell (Enter, a double-click, a thumbnail), `similar` while the grid shows a nearest-neighbour search.
 * Closing such a panel ends that state (the inspection, the search); Escape is the grid's, as before.
 */
export type PanelOpener = 'inspect' | 'similar'

/** The nearest-neighbour search the grid shows (**Find similar rows**), and how to change or clear it. */
export interface SimilarSearch {
  view: TableViewSpec
  search: VectorSearch
  /** What the search started from: "row 42" or "a pasted vector". */
  source: string
  change(next: VectorSearch): void
  clear(): void
}

/** The version the view reads: the latest, one opened read-only from Versions, or the changes between two. */
export interface VersionControl {
  opened: { version: number; latest: number } | null
  open(version: number, latest: number): void
  backToLatest(): void
  showChanges(result: DiffResult): void
}

/** What a panel is given: the table, the view the grid shows, and what it may ask of that view. */
export interface PanelContext {
  /** The table at its latest version: where writes go. */
  tableRef: TableRef
  /** The version being read (the latest unless one is open): what the grid reads. */
  viewRef: TableRef & { version?: number }
  info: TableInfo
  /** The version the grid's rows come from. */
  version: number
  filter: string | undefined
  /** The map's lasso (a row set id), when it narrows the grid. */
  rowSet: string | undefined
  /** A vector or text search narrows the grid. */
  searching: boolean
  /** A filter, sort, search or row set: a row's place in the grid is not its offset. */
  narrowed: boolean
  /** Why writes are refused here (read-only switch), if they are. */
  writeBlock: string | undefined
  addFilter(predicate: string): void
  goToRow(row: number): void
  lasso(rows: number[]): Promise<void>
  versions: VersionControl
  /** The cell the shown grid or gallery inspects: the Inspector panel reads it. A view that does not offer that
   * panel (a query's result: its grid draws its own inspector) has none. */
  inspection?: InspectionStore
  /** The grid's nearest-neighbour search, if it shows one. */
  similar: SimilarSearch | null
  /** Close this panel. */
  close(): void
}

export interface PanelContribution {
  id: string
  /** The toolbar button's label and the dock tab's name. */
  title: string
  dock: DockSide
  /** Buttons of one group sit together (Versions, Indexes, Stats: "Table lifecycle"). */
  group?: string
  /** Whether the table offers it (the Map needs a vector column); the button is absent otherwise. */
  available?(info: TableInfo): boolean
  /** Opened by the view's state instead of a toolbar button (no button is drawn for it). */
  openedBy?: PanelOpener
  /** Offered on a query result too: the result opened as a read-only table (`sql/resultTable`), the context's refs its. */
  results?: boolean
  render(context: PanelContext): ReactNode
}

/** A modal sheet opened from the toolbar (Export…), for the view as the grid shows it. */
export interface SheetContext {
  tableRef: TableRef
  view: TableViewSpec
  rowCount: number
  tableRows: number
  columnCount: number
  totalColumns: number
  close(): void
}

export interface SheetContribution {
  id: string
  /** The toolbar button's label ("Export…"). */
  label: string
  /** Offered on a query result too (as {@link PanelContribution.results}). */
  results?: boolean
  render(context: SheetContext): ReactNode
}

/**
 * The grid header's strip under each column name (header histograms): a hook that holds its state (data and
 * handlers only), and the two components that draw it — the toolbar's toggle and one column's strip.
 */
export interface HeaderStripContribution<S> {
  use(tableRef: TableRef, version: number | undefined, filter: string | undefined, rowSet: string | undefined, onFilter: (predicate: string) => void): S
  /** Pixels the header grows by; undefined while the strip is off. */
  height(state: S): number | undefined
  Toggle: ComponentType<{ state: S; disabled: boolean }>
  /** The toggle as an entry of the toolbar's More tools menu (when the toolbar is too narrow for its button). */
  tool(state: S): { label: string; on: boolean; toggle(): void } | null
  Cell: ComponentType<{ state: S; column: string }>
}

const panels: PanelContribution[] = []
const sheets: SheetContribution[] = []
const noStrip: HeaderStripContribution<null> = { use: () => null, height: () => undefined, Toggle: () => null, tool: () => null, Cell: () => null }
let headerStrip = noStrip as HeaderStripContribution<unknown>

export function registerPanel(panel: PanelContribution): void {
  if (panels.some((p) => p.id === panel.id)) throw new Error(`a panel "${panel.id}" is registered twice`)
  panels.push(panel)
}

export function registerSheet(sheet: SheetContribution): void {
  if (sheets.some((s) => s.id === sheet.id)) throw new Error(`a sheet "${sheet.id}" is registered twice`)
  sheets.push(sheet)
}

/** One strip at most: the hook is called on every render of every table view, so it is set before the first. */
export function registerHeaderStrip<S>(strip: HeaderStripContribution<S>): void {
  // The view hands each piece the state its own hook made: the type is the contribution's, not the view's.
  headerStrip = strip as unknown as HeaderStripContribution<unknown>
}

export const contributions = {
  panels: (): readonly PanelContribution[] => panels,
  sheets: (): readonly SheetContribution[] => sheets,
  headerStrip: (): HeaderStripContribution<unknown> => headerStrip,
}
