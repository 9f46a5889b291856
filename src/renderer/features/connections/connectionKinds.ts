import type { ComponentType } from 'react'
import type { AppErrorData, SavedKind } from '../../../contract'
import type { ErrorAction } from '../../components/ErrorPanel'
import type { Busy, FormState, KindForm, TestOf } from './useConnectionForm'

/** What a kind's fragments get: the one form state, and the confirmation the kind may ask for before it acts. */
export interface FragmentProps<K extends SavedKind> {
  state: FormState<K>
  /** REST: "write" while the write test waits for its confirmation; object storage: the folder to create a catalog in. */
  confirm: string | null
  setConfirm(value: string | null): void
}

/**
 * One kind of saved connection as the one dialog shows it (Beekeeper Studio's per-engine fragments): its form
 * functions, its words, and the fragments drawn in the shell's slots. The dialog itself is the same for every kind.
 */
export interface ConnectionKind<K extends SavedKind> {
  /** The title of a new connection's dialog ("Edit “name”" when editing). */
  newTitle: string
  form: KindForm<K>
  /** The error's title, from the action it came from. */
  errorTitle(action: Busy<TestOf<K>>, error: AppErrorData, editing: boolean): string
  /** Actions offered under the error (object storage: "Create a catalog here…" for an empty prefix). */
  errorActions?(error: AppErrorData, props: FragmentProps<K>): ErrorAction[]
  /** The fields, in the dialog's body. */
  Fields: ComponentType<FragmentProps<K>>
  /** The test buttons, at the footer's left. */
  TestButtons: ComponentType<FragmentProps<K>>
  /** Below the fields: the test's progress, its report, a confirmation. */
  Outcome: ComponentType<FragmentProps<K>>
  /** Drawn over the dialog (object storage: the "Create a catalog here" confirmation). */
  Overlay?: ComponentType<FragmentProps<K>>
}
