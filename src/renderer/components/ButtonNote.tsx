import type { ReactNode } from 'react'
import './buttonNote.css'

/**
 * A toolbar button with a short note floating under it (Histograms' progress, "Link copied"): the note lies over what
 * is below, so the toolbar keeps its place while it comes and goes. A `status` by default, an `alert` for an error.
 */
export function ButtonWithNote({ button, note, label, error = false, align = 'left' }: { button: ReactNode; note: ReactNode; label?: string; error?: boolean; align?: 'left' | 'right' }) {
  return (
    <span className="button-with-note">
      {button}
      {note !== null && note !== undefined && note !== false && (
        <span className={`button-note button-note-${align}${error ? ' error' : ''}`} role={error ? 'alert' : 'status'} aria-label={label}>
          {note}
        </span>
      )}
    </span>
  )
}
