import { useMutation, type UseMutationResult } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import type { AppErrorData, ConnectionInfo } from '../../../contract'
import { call, newRequestId } from '../../api'
import { errorData } from '../../components/ErrorPanel'

/** What a connection dialog is doing: a test (of a kind the dialog names), a save, or a "Save & connect". */
export type Busy<Test extends string> = { what: Test | 'save' | 'connect'; requestId?: string } | null

/** What the form reads of a mutation: whether it runs, how it failed, when it was last started. */
type MutationState = Pick<UseMutationResult<unknown, Error, never>, 'isPending' | 'error' | 'reset' | 'submittedAt'>

/** One of the dialog's writes: its mutation (`useMutation` of the feature's mutations.ts) and its call for a form. */
export interface FormWrite<Form, Out> {
  mutation: MutationState
  run(form: Form): Promise<Out>
}

export interface ConnectionFormOptions<Form, View> {
  /** The saved connection to edit; absent = a new one. */
  editing?: View
  /** Why opening this connection failed just now (shown at the top; it takes no focus). */
  openError: AppErrorData | null
  emptyForm(): Form
  fromView(view: View): Form
  validate(form: Form): Record<string, string>
  save: FormWrite<Form, View>
  /** Opens first and saves only when it opened: a wrong key saves nothing. */
  connect: FormWrite<Form, { view: View; connection: ConnectionInfo }>
  onCancel(): void
  onSaved(view: View): void
  onConnected(view: View, connection: ConnectionInfo): void
}

/** A test run: its kind, the id `requests/cancel` stops it by, and the read it makes. */
interface TestRun<Test extends string, Report> {
  what: Test
  requestId: string
  request(requestId: string): Promise<Report>
}

/**
 * The state both connection dialogs (REST server, object storage) keep: the form and which of its errors to show,
 * the running action, its error (focused when it appears) or test report, and the saved connection being edited.
 * What runs and how it failed is the mutations' own state (the save, the "Save & connect", and the test: a read run
 * on demand, with an id to cancel it by); the form keeps only an error no call made (the open error it came with, or
 * one the dialog sets, such as a key file too large to read).
 */
export function useConnectionForm<Form, View, Report, Test extends string>(options: ConnectionFormOptions<Form, View>) {
  const { editing, openError, fromView, onCancel, onSaved, onConnected, save, connect } = options
  const [form, setForm] = useState<Form>(() => (editing ? fromView(editing) : options.emptyForm()))
  const [touched, setTouched] = useState<Set<string>>(() => new Set())
  const [submitted, setSubmitted] = useState(false)
  const [formError, setError] = useState<AppErrorData | null>(openError)
  const [saved, setSaved] = useState<View | undefined>(editing)
  const test = useMutation<Report, Error, TestRun<Test, Report>>({ mutationFn: ({ request, requestId }) => request(requestId) })

  // A cancel the user asked for is not an error to show.
  const cancelled = test.error !== null && errorData(test.error).code === 'cancelled'
  const actions: { what: Test | 'save' | 'connect' | undefined; mutation: MutationState; requestId?: string }[] = [
    { what: test.variables?.what, mutation: test, requestId: test.variables?.requestId },
    { what: 'save', mutation: save.mutation },
    { what: 'connect', mutation: connect.mutation },
  ]
  const running = actions.find((a) => a.mutation.isPending)
  const busy: Busy<Test> = running?.what ? { what: running.what, ...(running.requestId ? { requestId: running.requestId } : {}) } : null
  /** What the shown error came from: the action started last (none has run when the error is the open error). */
  const latest = actions.filter((a) => a.mutation.submittedAt > 0).sort((a, b) => b.mutation.submittedAt - a.mutation.submittedAt)[0]
  const lastAction: Busy<Test> = latest?.what ? { what: latest.what } : null
  const failed = (cancelled ? null : test.error) ?? save.mutation.error ?? connect.mutation.error
  const callError = useMemo(() => (failed ? errorData(failed) : null), [failed])
  const error = formError ?? callError

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
  const update = (patch: Partial<Form>) => setForm((previous) => ({ ...previous, ...patch }))

  const requireValid = (): boolean => {
    setSubmitted(true)
    return valid
  }

  /** Runs a test of kind `what`; `request` gets an id that `cancelRequest` cancels it by. */
  const runTest = async (what: Test, request: (requestId: string) => Promise<Report>) => {
    if (!requireValid()) return
    // The error shown goes; the test's own earlier report, error or cancel goes as it starts again.
    setError(null)
    save.mutation.reset()
    connect.mutation.reset()
    await test.mutateAsync({ what, requestId: newRequestId(), request }).catch(() => undefined)
  }

  const cancelRequest = () => {
    if (busy?.requestId) void call('requests/cancel', { requestId: busy.requestId }).catch(() => undefined)
  }

  /** "Save" (then close) or "Save & connect". */
  const submit = async (connecting: boolean) => {
    if (!requireValid()) return
    // The error shown goes; a test's report (or its cancel) stays.
    setError(null)
    if (test.isError && !cancelled) test.reset()
    save.mutation.reset()
    connect.mutation.reset()
    try {
      if (connecting) {
        const { view, connection } = await connect.run(form)
        onSaved(view)
        onConnected(view, connection)
        return
      }
      const view = await save.run(form)
      // The form edits this saved connection now, and its secrets show as "saved".
      setSaved(view)
      setForm(fromView(view))
      onSaved(view)
      onCancel()
    } catch {
      // The mutation holds the error, shown at the top.
    }
  }

  const report = test.data ?? null
  return { form, setForm, update, shown, touch, busy, lastAction, error, setError, errorRef, report, cancelled, saved, runTest, cancelRequest, submit, onCancel }
}

/** What the dialog shell around the fields needs of the state. */
export interface ConnectionFormState {
  busy: Busy<string>
  error: AppErrorData | null
  errorRef: RefObject<HTMLDivElement | null>
  submit(connect: boolean): Promise<void>
  onCancel(): void
}
