import { useId, useState, type ReactNode } from 'react'
import type { AppErrorData } from '../../../contract'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { Modal } from '../actions/Modal'

export interface ConfirmDialogProps {
  title: string
  children: ReactNode
  confirmLabel: string
  destructive?: boolean
  /** The work; the dialog stays open with the error if it fails. */
  run(): Promise<void>
  onClose(): void
}

/** "Are you sure?" for a lifecycle write: says what will happen, runs it, shows a failure in words. */
export function ConfirmDialog({ title, children, confirmLabel, destructive, run, onClose }: ConfirmDialogProps) {
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
        <footer className="dialog-footer">
          <div className="dialog-footer-left" />
          <div className="dialog-footer-right">
            <button type="button" className="button" onClick={onClose} disabled={running}>
              Cancel
            </button>
            <button type="button" className={destructive ? 'button danger' : 'button primary'} disabled={running} onClick={() => void confirm()} data-autofocus>
              {running && <Spinner label="Working" />}
              {confirmLabel}
            </button>
          </div>
        </footer>
      </div>
    </Modal>
  )
}
