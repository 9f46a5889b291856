import { Spinner } from './Spinner'

/**
 * The footer every confirm-or-cancel dialog shares: Cancel, then the action (danger when destructive), both
 * disabled while the action runs, with a spinner on the action. The action submits the dialog's form unless
 * `onConfirm` is given (dialogs that are not forms).
 */
export function DialogFooter({
  label,
  onCancel,
  onConfirm,
  running = false,
  disabled = false,
  destructive = false,
  autoFocus = false,
}: {
  label: string
  onCancel(): void
  onConfirm?(): void
  running?: boolean
  disabled?: boolean
  destructive?: boolean
  /** The action takes the focus when the dialog opens (`data-autofocus`). */
  autoFocus?: boolean
}) {
  return (
    <footer className="dialog-footer">
      <div className="dialog-footer-left" />
      <div className="dialog-footer-right">
        <button type="button" className="button" onClick={onCancel} disabled={running}>
          Cancel
        </button>
        <button
          type={onConfirm ? 'button' : 'submit'}
          className={destructive ? 'button danger' : 'button primary'}
          disabled={running || disabled}
          onClick={onConfirm}
          data-autofocus={autoFocus || undefined}
        >
          {running && <Spinner label="Working" />}
          {label}
        </button>
      </div>
    </footer>
  )
}

/** The footer of a dialog that only shows something: one Close button, focused when the dialog opens. */
export function CloseFooter({ onClose, primary = false }: { onClose(): void; primary?: boolean }) {
  return (
    <footer className="dialog-footer">
      <div className="dialog-footer-left" />
      <div className="dialog-footer-right">
        <button type="button" className={primary ? 'button primary' : 'button'} onClick={onClose} data-autofocus>
          Close
        </button>
      </div>
    </footer>
  )
}
