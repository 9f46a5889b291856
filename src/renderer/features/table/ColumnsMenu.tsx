import { useContext, useEffect, useId, useRef, useState } from 'react'
import type { FieldInfo } from '../../../contract'
import { ColumnsIcon } from '../../components/Icons'
import type { ColumnVisibility } from './DataGrid'
import { loadHiddenColumns, saveHiddenColumns } from './hiddenColumns'
import { TableIdentity } from './tableIdentity'

/**
 * Show/hide columns: a button with a popover of checkboxes — each column's whole name first, its type
 * second — and a search box. The hidden columns are remembered per table (see tableIdentity).
 */
export function ColumnsMenu({
  fields,
  visibility,
  onChange,
}: {
  fields: readonly FieldInfo[]
  visibility: ColumnVisibility
  onChange(next: ColumnVisibility): void
}) {
  const [open, setOpen] = useState(false)
  const [query, setQuery] = useState('')
  const root = useRef<HTMLDivElement>(null)
  const button = useRef<HTMLButtonElement>(null)
  const searchId = useId()
  const identity = useContext(TableIdentity)
  const hidden = fields.filter((f) => visibility[f.name] === false).length

  // Bring back what was hidden last time in this table (only columns it still has).
  const restored = useRef(false)
  useEffect(() => {
    if (restored.current || !identity) return
    restored.current = true
    const names = new Set(fields.map((f) => f.name))
    const remembered = loadHiddenColumns(identity).filter((name) => names.has(name))
    if (remembered.length > 0) onChange({ ...visibility, ...Object.fromEntries(remembered.map((name) => [name, false])) })
  }, [identity, fields, visibility, onChange])

  const change = (next: ColumnVisibility) => {
    onChange(next)
    if (identity) saveHiddenColumns(identity, fields.filter((f) => next[f.name] === false).map((f) => f.name))
  }

  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      button.current?.focus()
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  const needle = query.trim().toLowerCase()
  const shown = needle === '' ? fields : fields.filter((f) => f.name.toLowerCase().includes(needle) || f.type.toLowerCase().includes(needle))

  return (
    <div className="popover-anchor" ref={root}>
      <button
        ref={button}
        type="button"
        className="button"
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => {
          setOpen(!open)
          setQuery('')
        }}
      >
        <ColumnsIcon />
        Columns{hidden > 0 ? ` (${hidden} hidden)` : ''}
      </button>
      {open && (
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
      )}
    </div>
  )
}
