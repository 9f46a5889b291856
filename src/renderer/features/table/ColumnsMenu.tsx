import { useContext, useEffect, useId, useRef, useState, type RefObject } from 'react'
import type { FieldInfo } from '../../../contract'
import { ColumnsIcon } from '../../components/Icons'
import type { ColumnVisibility } from './DataGrid'
import { loadHiddenColumns, saveHiddenColumns } from './hiddenColumns'
import { TableIdentity } from './tableIdentity'

/** The columns shown and how to change them: the hidden ones are remembered per table (see tableIdentity). */
export interface ColumnsChoice {
  fields: readonly FieldInfo[]
  visibility: ColumnVisibility
  /** How many are hidden. */
  hidden: number
  change(next: ColumnVisibility): void
}

/** The view's column choice; brings back what was hidden last time in this table (only columns it still has). */
export function useColumnsChoice(fields: readonly FieldInfo[], visibility: ColumnVisibility, onChange: (next: ColumnVisibility) => void): ColumnsChoice {
  const identity = useContext(TableIdentity)
  // Once per table, when its columns are known.
  const restored = useRef<string | null>(null)
  useEffect(() => {
    if (restored.current === identity || !identity || fields.length === 0) return
    restored.current = identity
    const names = new Set(fields.map((f) => f.name))
    const remembered = loadHiddenColumns(identity).filter((name) => names.has(name))
    if (remembered.length > 0) onChange({ ...visibility, ...Object.fromEntries(remembered.map((name) => [name, false])) })
  }, [identity, fields, visibility, onChange])
  const change = (next: ColumnVisibility) => {
    onChange(next)
    if (identity) saveHiddenColumns(identity, fields.filter((f) => next[f.name] === false).map((f) => f.name))
  }
  return { fields, visibility, hidden: fields.filter((f) => visibility[f.name] === false).length, change }
}

/** The button's (and the More tools entry's) name. */
export const columnsLabel = (choice: ColumnsChoice) => `Columns${choice.hidden > 0 ? ` (${choice.hidden} hidden)` : ''}`

/** Show/hide columns: a button with the popover of {@link ColumnsPopover}. */
export function ColumnsMenu({ choice }: { choice: ColumnsChoice }) {
  const [open, setOpen] = useState(false)
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  return (
    <div className="popover-anchor" ref={root}>
      <button ref={button} type="button" className="button" aria-expanded={open} aria-haspopup="true" onClick={() => setOpen(!open)}>
        <ColumnsIcon />
        {columnsLabel(choice)}
      </button>
      {open && <ColumnsPopover choice={choice} within={root} onClose={(focusBack) => {
        setOpen(false)
        if (focusBack) button.current?.focus()
      }} />}
    </div>
  )
}

/**
 * The columns popover: a checkbox for each column — its whole name first, its type second — and a search box.
 * A pointer down outside `within` closes it; Escape closes it and asks for the focus to go back to its opener.
 */
export function ColumnsPopover({ choice, within, onClose }: { choice: ColumnsChoice; within: RefObject<HTMLElement | null>; onClose(focusBack: boolean): void }) {
  const { fields, visibility, hidden, change } = choice
  const [query, setQuery] = useState('')
  const searchId = useId()
  // The listeners below stay for the popover's life; they call the latest onClose.
  const close = useRef(onClose)
  useEffect(() => {
    close.current = onClose
  })

  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      if (within.current && !within.current.contains(event.target as Node)) close.current(false)
    }
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') close.current(true)
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [within])

  const needle = query.trim().toLowerCase()
  const shown = needle === '' ? fields : fields.filter((f) => f.name.toLowerCase().includes(needle) || f.type.toLowerCase().includes(needle))

  return (
    <div className="popover columns-popover" role="group" aria-label="Visible columns">
      <div className="columns-popover-top">
        <input
          id={searchId}
          type="search"
          className="text-input small"
          placeholder="Find a column"
          aria-label="Find a column"
          autoFocus
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <div className="columns-popover-actions">
          <span className="muted small">
            {fields.length - hidden} of {fields.length} shown
          </span>
          <button type="button" className="link-button" onClick={() => change({})} disabled={hidden === 0}>
            Show all
          </button>
        </div>
      </div>
      <div className="columns-popover-list">
        {shown.map((field) => (
          <label key={field.name} className="check-row column-row">
            <input type="checkbox" checked={visibility[field.name] !== false} onChange={(event) => change({ ...visibility, [field.name]: event.target.checked })} />
            <span className="column-row-text">
              <span className="column-row-name">{field.name}</span>
              <span className="column-row-type" title={field.type}>
                {field.type}
              </span>
            </span>
          </label>
        ))}
        {shown.length === 0 && <div className="muted small columns-popover-empty">No column matches “{query.trim()}”</div>}
      </div>
    </div>
  )
}
