import { useId, useState, type ReactNode } from 'react'
import type { AppErrorData } from '../../contract'
import { ErrorPanel, errorData } from './ErrorPanel'
import { Modal } from './Modal'
import { DialogFooter } from './DialogFooter'

export interface ConfirmDialogProps {
  title: string
  children: ReactNode
  confirmLabel: string
  destructive?: boolean
  /** The action cannot run (the body says why). */
  disabled?: boolean
  /** The work; the dialog stays open with the error if it fails. */
  run(): Promise<void>
  onClose(): void
}

/** "Are you sure?" for a lifecycle write: says what will happen, runs it, shows a failure in words. */
export function ConfirmDialog({ title, children, confirmLabel, destructive, disabled, run, onClose }: ConfirmDialogProps) {
  const titleId = useId()
  const [running, setRunning] = useState(false)
  const [error, setError] = useState<AppErrorData | null>(null)
  const confirm = async () => {
    setRunning(true)
    setError(null)
    try {
      await run()
      onClose()
    } catch (e) {
      setError(errorData(e))
      setRunning(false)
    }
  }
  return (
    <Modal labelledBy={titleId} onClose={running ? undefined : onClose} className="action-dialog" role={destructive ? 'alertdialog' : 'dialog'}>
      <div className="dialog-form">
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
        </header>
        <div className="dialog-body">
          {children}
          {error && <ErrorPanel error={error} title={`Could not ${confirmLabel.toLowerCase()}`} compact />}
        </div>
        <DialogFooter label={confirmLabel} onCancel={onClose} onConfirm={() => void confirm()} running={running} disabled={disabled} destructive={destructive} autoFocus />
      </div>
    </Modal>
  )
}
