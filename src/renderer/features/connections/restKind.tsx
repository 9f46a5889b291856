import type { AppErrorData } from '../../../contract'
import { Spinner } from '../../components/Spinner'
import type { ConnectionKind, FragmentProps } from './connectionKinds'
import { emptyForm, formFromView, formToDraft, validateForm } from './connectionForm'
import { testSaved } from './queries'
import { RestFields } from './RestFields'
import { TestReport } from './RestTestReport'
import type { Busy } from './useConnectionForm'

/** "Connect to server": a REST catalog server, tested by listing it (and, when asked, a write round trip). */
export const restKind: ConnectionKind<'rest'> = {
  newTitle: 'Connect to server',
  form: {
    emptyForm,
    withLocation: (form, endpoint) => ({ ...form, endpoint }),
    fromView: formFromView,
    validate: validateForm,
    toDraft: formToDraft,
    test: (what, draft, requestId) => testSaved({ kind: 'rest', draft, write: what === 'write-test', requestId }),
  },
  errorTitle,
  Fields: RestFields,
  TestButtons,
  Outcome,
}

/** The write test asks first: it creates and drops a table on the server. */
const runTest = ({ state, setConfirm }: FragmentProps<'rest'>, write: boolean) => {
  setConfirm(null)
  return state.runTest(write ? 'write-test' : 'test')
}

function TestButtons(props: FragmentProps<'rest'>) {
  const { state, confirm, setConfirm } = props
  return (
    <>
      <button type="button" className="button" onClick={() => void runTest(props, false)} disabled={state.busy !== null}>
        Test connection
      </button>
      <button type="button" className="button" onClick={() => setConfirm('write')} disabled={state.busy !== null || confirm !== null}>
        Test with a write round trip…
      </button>
    </>
  )
}

function Outcome(props: FragmentProps<'rest'>) {
  const { state, confirm, setConfirm } = props
  const { busy, report, cancelled } = state
  return (
    <>
      {confirm !== null && (
        <div className="confirm-panel" role="alertdialog" aria-label="Confirm the write test">
          <p>
            <strong>This writes to the server.</strong> It creates a small table, lists the tables again to see it, then drops it.
          </p>
          <div className="dialog-actions-inline">
            <button type="button" className="button primary" onClick={() => void runTest(props, true)}>
              Create and drop a test table
            </button>
            <button type="button" className="button" onClick={() => setConfirm(null)}>
              Back
            </button>
          </div>
        </div>
      )}
      {busy && (busy.what === 'test' || busy.what === 'write-test') && (
        <div className="test-progress" role="status">
          <Spinner label="Testing" /> {busy.what === 'write-test' ? 'Running the write round trip…' : 'Listing the server’s tables…'}
          <button type="button" className="button" onClick={state.cancelRequest}>
            Cancel test
          </button>
        </div>
      )}
      {report && <TestReport report={report} />}
      {cancelled && (
        <div className="muted" role="status">
          Test cancelled.
        </div>
      )}
    </>
  )
}

function errorTitle(action: Busy<'test' | 'write-test'>, error: AppErrorData, editing: boolean): string {
  if (action?.what === 'save') return error.code === 'unauthenticated' ? 'The server refused the credentials' : 'Could not save'
  // "Save & connect" saves only after connecting: say that nothing was saved or changed.
  const unchanged = action?.what === 'connect' ? (editing ? ' — the saved connection is unchanged' : ' — nothing was saved') : ''
  return `${error.code === 'unauthenticated' ? 'The server refused the credentials' : 'Could not connect'}${unchanged}`
}
