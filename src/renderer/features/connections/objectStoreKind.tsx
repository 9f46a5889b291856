import type { ObjectStoreTestReport } from '../../../contract'
import { isEmptyRootError } from '../../../contract/connections'
import { Spinner } from '../../components/Spinner'
import type { ConnectionKind, FragmentProps } from './connectionKinds'
import { CreateCatalogDialog } from './CreateCatalogDialog'
import { ObjectStoreFields } from './ObjectStoreFields'
import { emptyObjectStoreForm, objectStoreFormFromView, objectStoreFormToDraft, validateObjectStoreForm } from './objectStoreForm'
import { testSaved } from './queries'
import type { Busy } from './useConnectionForm'

/**
 * "Connect to object storage": a catalog in a bucket (or a local folder), tested by opening it and listing its root.
 * An empty prefix offers "Create a catalog here…": confirmed, Save & connect writes its `__manifest`.
 */
export const objectStoreKind: ConnectionKind<'object-store'> = {
  newTitle: 'Connect to object storage',
  form: {
    emptyForm: emptyObjectStoreForm,
    withLocation: (form, uri) => ({ ...form, uri }),
    fromView: objectStoreFormFromView,
    validate: validateObjectStoreForm,
    toDraft: objectStoreFormToDraft,
    test: (_what, draft) => testSaved({ kind: 'object-store', draft }),
  },
  errorTitle,
  errorActions: (error, { state, setConfirm }) =>
    isEmptyRootError(error) && state.lastAction?.what !== 'save' ? [{ label: 'Create a catalog here…', run: () => setConfirm(state.form.uri.trim()) }] : [],
  Fields: ObjectStoreFields,
  TestButtons,
  Outcome,
  Overlay: CreateCatalog,
}

function TestButtons({ state }: FragmentProps<'object-store'>) {
  return (
    <button type="button" className="button" onClick={() => void state.runTest('test')} disabled={state.busy !== null}>
      {state.busy?.what === 'test' && <Spinner label="Testing" />}
      Test connection
    </button>
  )
}

/** "Create a catalog here", confirmed: Save & connect with `create`, which writes the catalog's `__manifest`. */
function CreateCatalog({ state, confirm, setConfirm }: FragmentProps<'object-store'>) {
  if (confirm === null) return null
  return (
    <CreateCatalogDialog
      location={confirm}
      onConfirm={() => {
        setConfirm(null)
        void state.submit(true, { create: true })
      }}
      onClose={() => setConfirm(null)}
    />
  )
}

function Outcome({ state }: FragmentProps<'object-store'>) {
  const { shown, busy, report } = state
  return (
    <>
      {shown('form') && <div className="field-error">{shown('form')}</div>}
      {busy?.what === 'test' && (
        <div className="test-progress" role="status">
          <Spinner label="Testing" /> Opening the catalog and listing its root…
        </div>
      )}
      {report && (
        <section className="test-report ok" aria-label="Test result">
          <div className="test-summary">{testSummary(report)}</div>
        </section>
      )}
    </>
  )
}

function testSummary(report: ObjectStoreTestReport): string {
  const n = (count: number, one: string, many: string) => `${count}${report.more ? '+' : ''} ${count === 1 && !report.more ? one : many}`
  return `The catalog opened: ${n(report.namespaces, 'namespace', 'namespaces')} and ${n(report.tables, 'table', 'tables')} at its root (${Math.round(report.ms)} ms).`
}

function errorTitle(action: Busy<'test'>, _error: unknown, editing: boolean): string {
  if (action?.what === 'save') return 'Could not save'
  if (action?.what === 'test') return 'The test failed'
  return `Could not open the catalog${editing ? ' — the saved connection is unchanged' : ' — nothing was saved'}`
}
