import { useMutation } from '@tanstack/react-query'
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import type { AppErrorData, ConnectionInfo, Input, SavedKind, SavedView } from '../../../contract'
import { call, newRequestId } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { connectSaved, saveSaved, viewOf } from './mutations'

/** What a connection dialog is doing: a test (of a kind the dialog names), a save, or a "Save & connect". */
export type Busy<Test extends string> = { what: Test | 'save' | 'connect'; requestId?: string } | null

type ViewOf<K extends SavedKind> = Extract<SavedView, { kind: K }>
type DraftOf<K extends SavedKind> = Extract<Input<'connections/saved/save'>, { kind: K }>['draft']
/** What "Save & connect" of a kind takes besides the draft (an object store's `create`). */
type ConnectExtra<K extends SavedKind> = Omit<Extract<Input<'connections/saved/connect'>, { kind: K }>, 'kind' | 'draft'>

export interface ConnectionFormOptions<K extends SavedKind, Form> {
  /** Which kind of saved connection the form makes: its save and connect go to that kind's store. */
  kind: K
  /** The saved connection to edit; absent = a new one. */
  editing?: ViewOf<K>
  /** Why opening this connection failed just now (shown at the top; it takes no focus). */
  openError: AppErrorData | null
  emptyForm(): Form
  fromView(view: ViewOf<K>): Form
  validate(form: Form): Record<string, string>
  /** The draft `connections/saved/*` take (secrets left out keep the saved ones). */
  toDraft(form: Form): DraftOf<K>
  /** Extra input of "Save & connect", read when it runs. */
  connectExtra?(): ConnectExtra<K>
  onCancel(): void
  onSaved(view: ViewOf<K>): void
  onConnected(view: ViewOf<K>, connection: ConnectionInfo): void
}

/**
 * The state both connection dialogs (REST server, object storage) keep: the form and which of its errors to show,
 * the running action, its error (focused when it appears) or test report, and the saved connection being edited.
 * Its Save and "Save & connect" are the saved-connection writes with the dialog's `kind` (one mutation each).
 */
export function useConnectionForm<K extends SavedKind, Form, Report, Test extends string>(options: ConnectionFormOptions<K, Form>) {
  type View = ViewOf<K>
  const { kind, editing, openError, fromView, toDraft, connectExtra, onCancel, onSaved, onConnected } = options
  const { mutateAsync: saveWrite } = useMutation(saveSaved)
  const { mutateAsync: connectWrite } = useMutation(connectSaved)
  const [form, setForm] = useState<Form>(() => (editing ? fromView(editing) : options.emptyForm()))
  const [touched, setTouched] = useState<Set<string>>(() => new Set())
  const [submitted, setSubmitted] = useState(false)
  const [busy, setBusy] = useState<Busy<Test>>(null)
  /** What the shown error came from (busy is null again by the time it shows). */
  const [lastAction, setLastAction] = useState<Busy<Test>>(null)
  const [error, setError] = useState<AppErrorData | null>(openError)
  const [report, setReport] = useState<Report | null>(null)
  const [cancelled, setCancelled] = useState(false)
  const [saved, setSaved] = useState<View | undefined>(editing)
  const errorRef = useRef<HTMLDivElement>(null)
  // A failed action leaves the focus in the dialog, on the error (its buttons were disabled meanwhile).
  useEffect(() => {
    if (error && error !== openError) errorRef.current?.focus()
  }, [error, openError])
  const alive = useRef(true)
  useEffect(
    () => () => {
      alive.current = false
    },
    [],
  )

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
    const requestId = newRequestId()
    setBusy({ what, requestId })
    setLastAction({ what })
    setError(null)
    setReport(null)
    setCancelled(false)
    try {
      const result = await request(requestId)
      if (alive.current) setReport(result)
    } catch (e) {
      const data = errorData(e)
      // A cancel the user asked for is not an error to show.
      if (alive.current) {
        if (data.code === 'cancelled') setCancelled(true)
        else setError(data)
      }
    } finally {
      if (alive.current) setBusy(null)
    }
  }

  const cancelRequest = () => {
    if (busy?.requestId) void call('requests/cancel', { requestId: busy.requestId }).catch(() => undefined)
  }

  /** "Save" (then close) or "Save & connect". */
  const submit = async (connect: boolean) => {
    if (!requireValid()) return
    setBusy({ what: connect ? 'connect' : 'save' })
    setLastAction({ what: connect ? 'connect' : 'save' })
    setError(null)
    try {
      if (connect) {
        // Opens first and saves only when it opened: a wrong key saves nothing.
        // (TypeScript cannot see that a draft of kind K goes with `kind: K`, hence the casts here and in Save.)
        const input = { ...connectExtra?.(), kind, draft: toDraft(form) } as Input<'connections/saved/connect'>
        const { view: answered, connection } = await connectWrite(input)
        const view = viewOf(kind, answered)
        onSaved(view)
        onConnected(view, connection)
        return
      }
      const view = viewOf(kind, await saveWrite({ kind, draft: toDraft(form) } as Input<'connections/saved/save'>))
      // The form edits this saved connection now, and its secrets show as "saved".
      setSaved(view)
      setForm(fromView(view))
      onSaved(view)
      onCancel()
    } catch (e) {
      if (alive.current) setError(errorData(e))
    } finally {
      if (alive.current) setBusy(null)
    }
  }

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
