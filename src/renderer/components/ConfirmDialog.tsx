import { useId, useMemo, type ReactNode } from 'react'
import { useMutation } from '@tanstack/react-query'
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
  /** The work (a feature's mutation, usually); the dialog stays open with the error if it fails. */
  run(): Promise<void>
  onClose(): void
}

/** "Are you sure?" for a lifecycle write: says what will happen, runs it, shows a failure in words. */
export function ConfirmDialog({ title, children, confirmLabel, destructive, disabled, run, onClose }: ConfirmDialogProps) {
  const titleId = useId()
  // The dialog's own busy flag and error; the write inside `run` has its staleness rule (queries/invalidate.ts).
  const confirmed = useMutation({ mutationFn: run, onSuccess: onClose })
  const running = confirmed.isPending || confirmed.isSuccess
  const error = useMemo(() => (confirmed.error ? errorData(confirmed.error) : null), [confirmed.error])
  const confirm = () => confirmed.mutate()
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
        <DialogFooter label={confirmLabel} onCancel={onClose} onConfirm={confirm} running={running} disabled={disabled} destructive={destructive} autoFocus />
      </div>
    </Modal>
  )
}
