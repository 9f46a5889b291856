import { useMutation } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState, type Dispatch, type RefObject, type SetStateAction } from 'react'
import type { AppErrorData, ConnectionInfo, Input, ObjectStoreTestReport, SavedKind, SavedView, VerificationReport } from '../../../contract'
import { call, newRequestId } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import type { ConnectionForm } from './connectionForm'
import { dialogStatus } from './dialogStatus'
import { connectSaved, saveSaved, viewOf } from './mutations'
import type { ObjectStoreForm } from './objectStoreForm'

/** Per kind of saved connection: the form the dialog edits, the report its test answers, and the tests it offers. */
export interface KindTypes {
  rest: { form: ConnectionForm; report: VerificationReport; test: 'test' | 'write-test' }
  'object-store': { form: ObjectStoreForm; report: ObjectStoreTestReport; test: 'test' }
}
export type FormOf<K extends SavedKind> = KindTypes[K]['form']
export type ReportOf<K extends SavedKind> = KindTypes[K]['report']
export type TestOf<K extends SavedKind> = KindTypes[K]['test']
export type ViewOf<K extends SavedKind> = Extract<SavedView, { kind: K }>
export type DraftOf<K extends SavedKind> = Extract<Input<'connections/saved/save'>, { kind: K }>['draft']
/** What "Save & connect" of a kind takes besides the draft (an object store's `create`). */
export type ConnectExtra<K extends SavedKind> = Omit<Extract<Input<'connections/saved/connect'>, { kind: K }>, 'kind' | 'draft'>

/** What a connection dialog is doing: a test (of a kind the dialog names), a save, or a "Save & connect". */
export type Busy<Test extends string> = { what: Test | 'save' | 'connect'; requestId?: string } | null

/** What a kind brings to the one form: its empty form, its form ⇄ saved view and draft, its checks and its test. */
export interface KindForm<K extends SavedKind> {
  emptyForm(): FormOf<K>
  /** A new form at `location` (a link's endpoint or URI: never a key, the user fills that in). */
  withLocation(form: FormOf<K>, location: string): FormOf<K>
  fromView(view: ViewOf<K>): FormOf<K>
  validate(form: FormOf<K>): Record<string, string>
  /** The draft `connections/saved/*` take (secrets left out keep the saved ones). */
  toDraft(form: FormOf<K>): DraftOf<K>
  /** The kind's test `what` of `draft`, cancellable by `requestId` (`connections/saved/test`, a read). */
  test(what: TestOf<K>, draft: DraftOf<K>, requestId: string): Promise<ReportOf<K>>
}

export interface ConnectionFormOptions<K extends SavedKind> extends KindForm<K> {
  /** Which kind of saved connection the form makes: its save and connect go to that kind's store. */
  kind: K
  /** The saved connection to edit; absent = a new one. */
  editing?: ViewOf<K>
  /** Why opening this connection failed just now (shown at the top; it takes no focus). */
  openError: AppErrorData | null
  /** A new connection's endpoint or URI, filled in (a link to a view names it). */
  prefill?: string
  onCancel(): void
  onSaved(view: ViewOf<K>): void
  onConnected(view: ViewOf<K>, connection: ConnectionInfo): void
}

type TestInput<K extends SavedKind> = { what: TestOf<K>; draft: DraftOf<K>; requestId: string }

/**
 * The one form state of the connection dialog, for either kind: the form and which of its errors to show, the
 * running action, its error (focused when it appears) or test report, and the saved connection being edited.
 * Save and "Save & connect" are the saved-connection writes with the dialog's `kind`, and the test is a mutation too:
 * what is running, what failed and the last report are the mutations' state, never kept by hand.
 */
export function useConnectionForm<K extends SavedKind>(options: ConnectionFormOptions<K>) {
  const { kind, editing, openError, fromView, toDraft, onCancel, onSaved, onConnected } = options
  const save = useMutation(saveSaved)
  const connect = useMutation(connectSaved)
  const test = useMutation({ mutationFn: ({ what, draft, requestId }: TestInput<K>) => options.test(what, draft, requestId) })
  const [form, setForm] = useState<FormOf<K>>(() => (editing ? fromView(editing) : options.prefill ? options.withLocation(options.emptyForm(), options.prefill) : options.emptyForm()))
  const [touched, setTouched] = useState<Set<string>>(() => new Set())
  const [submitted, setSubmitted] = useState(false)
  /** A problem no call answered: why opening failed just now, or a key file refused before it is read. */
  const [notice, setNotice] = useState<AppErrorData | null>(openError)
  const [saved, setSaved] = useState<ViewOf<K> | undefined>(editing)

  const { busy, lastAction, failed, cancelled, report } = dialogStatus<TestOf<K>, ReportOf<K>>(save, connect, test)
  const failure = useMemo(() => (failed ? errorData(failed) : null), [failed])
  const error = notice ?? failure

  const errorRef = useRef<HTMLDivElement>(null)
  // A failed action leaves the focus in the dialog, on the error (its buttons were disabled meanwhile).
  useEffect(() => {
    if (error && error !== openError) errorRef.current?.focus()
  }, [error, openError])

  const validate = options.validate
  const errors = useMemo(() => validate(form), [validate, form])
  const valid = Object.keys(errors).length === 0
  const shown = (field: string) => (submitted || touched.has(field) ? errors[field] : undefined)
  const touch = (field: string) => setTouched((previous) => (previous.has(field) ? previous : new Set(previous).add(field)))
  const update = (patch: Partial<FormOf<K>>) => setForm((previous) => ({ ...previous, ...patch }))

  const requireValid = (): boolean => {
    setSubmitted(true)
    return valid
  }

  /** Runs the kind's test `what`; `cancelRequest` cancels it. */
  const runTest = async (what: TestOf<K>) => {
    if (!requireValid()) return
    setNotice(null)
    save.reset()
    connect.reset()
    // Its outcome is the mutation's state (the report, the error or the cancel).
    await test.mutateAsync({ what, draft: toDraft(form), requestId: newRequestId() }).catch(() => undefined)
  }

  const cancelRequest = () => {
    if (busy?.requestId) void call('requests/cancel', { requestId: busy.requestId }).catch(() => undefined)
  }

  /** "Save" (then close) or "Save & connect"; `extra` is what the connect takes besides the draft. */
  const submit = async (connecting: boolean, extra?: ConnectExtra<K>) => {
    if (!requireValid()) return
    setNotice(null)
    save.reset()
    connect.reset()
    // (TypeScript cannot see that a draft of kind K goes with `kind: K`, hence the casts.) A refused call is the
    // mutation's error; an answer that cannot be used is shown as a notice.
    const draft = toDraft(form)
    if (connecting) {
      // Opens first and saves only when it opened: a wrong key saves nothing.
      const answer = await connect.mutateAsync({ ...extra, kind, draft } as Input<'connections/saved/connect'>).catch(() => null)
      if (!answer) return
      try {
        const view = viewOf(kind, answer.view)
        onSaved(view)
        onConnected(view, answer.connection)
      } catch (e) {
        setNotice(errorData(e))
      }
      return
    }
    const answer = await save.mutateAsync({ kind, draft } as Input<'connections/saved/save'>).catch(() => null)
    if (!answer) return
    try {
      const view = viewOf(kind, answer)
      // The form edits this saved connection now, and its secrets show as "saved".
      setSaved(view)
      setForm(fromView(view))
      onSaved(view)
      onCancel()
    } catch (e) {
      setNotice(errorData(e))
    }
  }

  const state: FormState<K> = { form, setForm, update, shown, touch, busy, lastAction, error, setError: setNotice, errorRef, report, cancelled, saved, runTest, cancelRequest, submit, onCancel }
  return state
}

/** The form state a kind's fields, buttons and outcome read. */
export interface FormState<K extends SavedKind> {
  form: FormOf<K>
  setForm: Dispatch<SetStateAction<FormOf<K>>>
  update(patch: Partial<FormOf<K>>): void
  /** The field's error, once it was left or the form submitted. */
  shown(field: string): string | undefined
  touch(field: string): void
  busy: Busy<TestOf<K>>
  lastAction: Busy<TestOf<K>>
  error: AppErrorData | null
  /** Shows a problem found before any call (it clears when the next action starts). */
  setError(error: AppErrorData | null): void
  errorRef: RefObject<HTMLDivElement | null>
  report: ReportOf<K> | null
  cancelled: boolean
  saved: ViewOf<K> | undefined
  runTest(what: TestOf<K>): Promise<void>
  cancelRequest(): void
  submit(connect: boolean, extra?: ConnectExtra<K>): Promise<void>
  onCancel(): void
}

/** What the dialog shell around the fields needs of the state. */
export interface ConnectionFormState {
  busy: Busy<string>
  error: AppErrorData | null
  errorRef: RefObject<HTMLDivElement | null>
  submit(connect: boolean): Promise<void>
  onCancel(): void
}
