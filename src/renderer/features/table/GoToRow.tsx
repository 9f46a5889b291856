import { useId, useState } from 'react'
import { FormDialog } from '../../components/FormDialog'
import { formatCount } from '../../lib/format'

/** **Go to row** (Ctrl/Cmd+G): a 1-based row number of the current view; the grid scrolls there and selects it. */
export function GoToRow({ rowCount, onGo, onClose }: { rowCount: number; onGo: (row: number) => void; onClose: () => void }) {
  const titleId = useId()
  const [value, setValue] = useState('')
  const n = Number(value.replace(/[\s,_]/g, ''))
  const problem = !Number.isSafeInteger(n) || n < 1 || n > rowCount ? `Give a row number from 1 to ${formatCount(rowCount)}` : null
  return (
    <FormDialog titleId={titleId} title="Go to row" action="Go" problem={problem} submit={() => onGo(n - 1)} onClose={onClose}>
      {(tried) => (
        <div className="dialog-field">
          <label htmlFor={`${titleId}-row`} className="field-label">
            Row number (1–{formatCount(rowCount)})
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
      )}
    </FormDialog>
  )
}
