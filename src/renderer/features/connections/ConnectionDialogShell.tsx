import { useId, type ReactNode } from 'react'
import type { AppErrorData } from '../../../contract'
import { ErrorPanel, type ErrorAction } from '../../components/ErrorPanel'
import { CloseIcon } from '../../components/Icons'
import { Spinner } from '../../components/Spinner'
import { Modal } from '../../components/Modal'
import type { ConnectionFormState } from './useConnectionForm'

/**
 * What the connection dialog looks like around a kind's fields: the title with Close, the connection-kind switch,
 * the last action's error (focused when it appears), and the footer: the kind's test buttons on the left,
 * Cancel / Save / Save & connect on the right. Enter in a field is "Save & connect".
 */
export function ConnectionDialogShell({
  state,
  title,
  kindSwitch,
  errorTitle,
  errorActions,
  footerLeft,
  children,
}: {
  state: ConnectionFormState
  title: string
  kindSwitch?: ReactNode
  errorTitle(error: AppErrorData): string
  /** Actions offered under the error (e.g. "Create a catalog here…" for an empty prefix). */
  errorActions?(error: AppErrorData): ErrorAction[]
  footerLeft: ReactNode
  children: ReactNode
}) {
  const { busy, error, errorRef, submit, onCancel } = state
  const titleId = useId()
  return (
    <Modal labelledBy={titleId} onClose={busy ? undefined : onCancel} className="connection-dialog">
      <form
        className="dialog-form"
        onSubmit={(event) => {
          event.preventDefault()
          void submit(true)
        }}
        noValidate
      >
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" title="Close" onClick={onCancel} disabled={busy !== null}>
            <CloseIcon />
          </button>
        </header>
        <div className="dialog-body">
          {kindSwitch}
          {error && (
            <div ref={errorRef} tabIndex={-1} className="dialog-error">
              <ErrorPanel error={error} title={errorTitle(error)} compact actions={errorActions?.(error)} />
            </div>
          )}
          {children}
        </div>
        <footer className="dialog-footer">
          <div className="dialog-footer-left">{footerLeft}</div>
          <div className="dialog-footer-right">
            <button type="button" className="button" onClick={onCancel} disabled={busy?.what === 'save' || busy?.what === 'connect'}>
              Cancel
            </button>
            <button type="button" className="button" onClick={() => void submit(false)} disabled={busy !== null}>
              Save
            </button>
            <button type="submit" className="button primary" disabled={busy !== null}>
              {busy?.what === 'connect' && <Spinner label="Connecting" />}
              Save &amp; connect
            </button>
          </div>
        </footer>
      </form>
    </Modal>
  )
}

/** A labelled field with its error (or else its hint) below. */
export function Field({ label, id, error, hint, children }: { label: string; id: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className="dialog-field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children}
      {error ? (
        <div className="field-error" id={`${id}-error`}>
          {error}
        </div>
      ) : (
        hint && <div className="muted small">{hint}</div>
      )}
    </div>
  )
}

/** "REST server / Object storage": which kind of connection the dialog makes (new connections only). */
export function ConnectionKindSwitch({ value, onChange }: { value: 'rest' | 'object-store'; onChange(kind: 'rest' | 'object-store'): void }) {
  return (
    <div className="segmented" role="radiogroup" aria-label="Connection type">
      {(
        [
          ['rest', 'REST server'],
          ['object-store', 'Object storage'],
        ] as const
      ).map(([kind, label]) => (
        <label key={kind} className={value === kind ? 'segment checked' : 'segment'}>
          <input type="radio" name="connection-kind" value={kind} checked={value === kind} onChange={() => onChange(kind)} />
          {label}
        </label>
      ))}
    </div>
  )
}
