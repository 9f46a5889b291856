import { useId, useState } from 'react'
import { Modal } from '../actions/Modal'
import { DialogFooter } from '../actions/DialogFooter'

const numberFormat = new Intl.NumberFormat('en-US')

/** **Go to row** (Ctrl/Cmd+G): a 1-based row number of the current view; the grid scrolls there and selects it. */
export function GoToRow({ rowCount, onGo, onClose }: { rowCount: number; onGo: (row: number) => void; onClose: () => void }) {
  const titleId = useId()
  const [value, setValue] = useState('')
  const [tried, setTried] = useState(false)
  const n = Number(value.replace(/[\s,_]/g, ''))
  const problem = !Number.isSafeInteger(n) || n < 1 || n > rowCount ? `Give a row number from 1 to ${numberFormat.format(rowCount)}` : null
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="action-dialog">
      <form
        className="dialog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          setTried(true)
          if (problem) return
          onGo(n - 1)
        }}
      >
        <header className="dialog-header">
          <h2 id={titleId}>Go to row</h2>
        </header>
        <div className="dialog-body">
          <div className="dialog-field">
            <label htmlFor={`${titleId}-row`} className="field-label">
              Row number (1–{numberFormat.format(rowCount)})
            </label>
            <input
              id={`${titleId}-row`}
              data-autofocus
              className="text-input mono"
              inputMode="numeric"
              autoComplete="off"
              value={value}
              onChange={(event) => setValue(event.target.value)}
              aria-invalid={tried && !!problem}
            />
            {tried && problem && <div className="field-error">{problem}</div>}
          </div>
        </div>
        <DialogFooter label="Go" onCancel={onClose} />
      </form>
    </Modal>
  )
}
