import { useEffect, useRef, useState } from 'react'
import type { FieldInfo } from '../../../contract'
import { ColumnsIcon } from '../../components/Icons'
import type { ColumnVisibility } from './DataGrid'

/** Show/hide columns: a button with a popover of checkboxes. */
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
  const root = useRef<HTMLDivElement>(null)
  const hidden = fields.filter((f) => visibility[f.name] === false).length

  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false)
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  return (
    <div className="popover-anchor" ref={root}>
      <button type="button" className="button" aria-expanded={open} aria-haspopup="true" onClick={() => setOpen(!open)}>
        <ColumnsIcon />
        Columns{hidden > 0 ? ` (${hidden} hidden)` : ''}
      </button>
      {open && (
        <div className="popover" role="group" aria-label="Visible columns">
          <div className="popover-actions">
            <button type="button" className="link-button" onClick={() => onChange({})}>
              Show all
            </button>
          </div>
          {fields.map((field) => (
            <label key={field.name} className="check-row">
              <input
                type="checkbox"
                checked={visibility[field.name] !== false}
                onChange={(event) => onChange({ ...visibility, [field.name]: event.target.checked })}
              />
              <span className="check-name">{field.name}</span>
              <span className="check-type">{field.type}</span>
            </label>
          ))}
        </div>
      )}
    </div>
  )
}
