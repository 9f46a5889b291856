import { useState, type ReactNode } from 'react'
import type { AppErrorData, ConnectionInfo, SavedKind } from '../../../contract'
import type { ConnectionKind } from './connectionKinds'
import { ConnectionDialogShell } from './ConnectionDialogShell'
import { objectStoreKind } from './objectStoreKind'
import { restKind } from './restKind'
import { useConnectionForm, type ViewOf } from './useConnectionForm'

/** Each kind's fragments; the dialog is the same for all of them. */
const KINDS: { [K in SavedKind]: ConnectionKind<K> } = { rest: restKind, 'object-store': objectStoreKind }

export interface ConnectionDialogProps<K extends SavedKind> {
  /** Which kind of saved connection: its fields, its test, the store its save goes to. */
  kind: K
  /** The saved connection to edit; absent = a new one. */
  editing?: ViewOf<K>
  /** Why opening this connection failed just now (shown at the top, e.g. a wrong key). */
  openError?: AppErrorData | null
  /** A new connection's endpoint or URI, filled in (a link to a view names it; never a key). */
  prefill?: string
  onCancel(): void
  /** Saved (the list should refresh). */
  onSaved(view: ViewOf<K>): void
  /** "Save & connect" succeeded: saved as `view` and open as `connection`. */
  onConnected(view: ViewOf<K>, connection: ConnectionInfo): void
  /** The "REST server / Object storage" choice, shown first (new connections only). */
  kindSwitch?: ReactNode
}

/**
 * The connection dialog ("Connect to server…", "Connect to object storage…", editing a saved one): one form state
 * (useConnectionForm) in one shell (ConnectionDialogShell) — title, error, Cancel / Save / Save & connect — with the
 * kind's fragments in its slots: its fields, its test buttons, what a test shows, and any confirmation over it.
 */
export function ConnectionDialog<K extends SavedKind>({ kind, editing, openError = null, prefill, onCancel, onSaved, onConnected, kindSwitch }: ConnectionDialogProps<K>) {
  const fragment = KINDS[kind]
  const state = useConnectionForm<K>({ kind, editing, openError, prefill, ...fragment.form, onCancel, onSaved, onConnected })
  const [confirm, setConfirm] = useState<string | null>(null)
  const props = { state, confirm, setConfirm }
  const { Fields, TestButtons, Outcome, Overlay } = fragment
  return (
    <>
      <ConnectionDialogShell
        state={state}
        title={state.saved ? `Edit “${state.saved.name}”` : fragment.newTitle}
        kindSwitch={kindSwitch}
        errorTitle={(error) => fragment.errorTitle(state.lastAction, error, state.saved !== undefined)}
        errorActions={fragment.errorActions && ((error) => fragment.errorActions?.(error, props) ?? [])}
        footerLeft={<TestButtons {...props} />}
      >
        <Fields {...props} />
        <Outcome {...props} />
      </ConnectionDialogShell>
      {Overlay && <Overlay {...props} />}
    </>
  )
}
