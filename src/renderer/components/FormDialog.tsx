import { useState, type ReactNode } from 'react'
import { Modal } from './Modal'
import { DialogFooter } from './DialogFooter'

/**
 * A small dialog around one form that checks its input on submit: the title, the fields (`children`, which get
 * `tried` — show field errors only after a first submit), Cancel and the action. `submit` runs when `problem` is null.
 */
export function FormDialog({
  titleId,
  title,
  action,
  problem,
  submit,
  onClose,
  children,
}: {
  titleId: string
  title: string
  action: string
  problem: string | null
  submit(): void
  onClose(): void
  children(tried: boolean): ReactNode
}) {
  const [tried, setTried] = useState(false)
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="action-dialog">
      <form
        className="dialog-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          setTried(true)
          if (!problem) submit()
        }}
      >
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
        </header>
        <div className="dialog-body">{children(tried)}</div>
        <DialogFooter label={action} onCancel={onClose} />
      </form>
    </Modal>
  )
}
