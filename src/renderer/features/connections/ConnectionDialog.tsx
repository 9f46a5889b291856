import { useState, type ReactNode } from 'react'
import { useMutation } from '@tanstack/react-query'
import { connectServer, saveServer } from './mutations'
import type { AppErrorData, ConnectionInfo, SavedConnectionView, VerificationReport } from '../../../contract'
import { call } from '../../api'
import { CloseIcon } from '../../components/Icons'
import { Spinner } from '../../components/Spinner'
import { ConnectionDialogShell, Field } from './ConnectionDialogShell'
import {
  emptyForm,
  formFromView,
  formToDraft,
  keepsSavedSecret,
  newHeaderRow,
  validateForm,
  type ConnectionForm,
  type HeaderRow,
} from './connectionForm'
import { useConnectionForm, type Busy } from './useConnectionForm'
import { formatCount } from '../../lib/format'

export interface ConnectionDialogProps {
  /** The saved connection to edit; absent = a new one. */
  editing?: SavedConnectionView
  /** Why opening this connection failed just now (shown at the top, e.g. a wrong key). */
  openError?: AppErrorData | null
  onCancel(): void
  /** Saved (the list should refresh). */
  onSaved(view: SavedConnectionView): void
  /** "Save & connect" succeeded: saved as `view` and open as `connection`. */
  onConnected(view: SavedConnectionView, connection: ConnectionInfo): void
  /** The "REST server / Object storage" choice, shown first (new connections only). */
  kindSwitch?: ReactNode
}

/**
 * "Connect to server…": endpoint, authentication, database, extra headers; test, save, connect.
 * A saved secret is shown as "••••• saved" with a Replace button: it never comes back from main.
 */
export function ConnectionDialog({ editing, openError = null, onCancel, onSaved, onConnected, kindSwitch }: ConnectionDialogProps) {
  // The writes; the busy flag and error the form shows are theirs and its tests' (useConnectionForm).
  const save = useMutation(saveServer)
  const connect = useMutation(connectServer)
  const state = useConnectionForm<ConnectionForm, SavedConnectionView, VerificationReport, 'test' | 'write-test'>({
    editing,
    openError,
    emptyForm,
    fromView: formFromView,
    validate: validateForm,
    save: { mutation: save, run: (form) => save.mutateAsync({ draft: formToDraft(form) }) },
    connect: { mutation: connect, run: (form) => connect.mutateAsync({ draft: formToDraft(form) }) },
    onCancel,
    onSaved,
    onConnected,
  })
  const { form, setForm, update, shown, touch, busy, lastAction, report, cancelled, saved } = state
  const [confirmWrite, setConfirmWrite] = useState(false)
  const updateHeader = (index: number, patch: Partial<HeaderRow>) =>
    setForm((previous) => ({ ...previous, headers: previous.headers.map((h, i) => (i === index ? { ...h, ...patch } : h)) }))

  const runTest = (write: boolean) => {
    setConfirmWrite(false)
    return state.runTest(write ? 'write-test' : 'test', (requestId) => call('connections/test', { draft: formToDraft(form), write, requestId }))
  }

  const secretLabel = form.authKind === 'bearer' ? 'Bearer token' : 'API key'
  const title = saved ? `Edit “${saved.name}”` : 'Connect to server'

  return (
    <ConnectionDialogShell
      state={state}
      title={title}
      kindSwitch={kindSwitch}
      errorTitle={(error) => errorTitle(lastAction, error, saved !== undefined)}
      footerLeft={
        <>
          <button type="button" className="button" onClick={() => void runTest(false)} disabled={busy !== null}>
            Test connection
          </button>
          <button type="button" className="button" onClick={() => setConfirmWrite(true)} disabled={busy !== null || confirmWrite}>
            Test with a write round trip…
          </button>
        </>
      }
    >
      <Field label="Name" id="conn-name" error={shown('name')}>
        <input id="conn-name" className="text-input" autoComplete="off" value={form.name} placeholder="Team catalog" onChange={(e) => update({ name: e.target.value })} onBlur={() => touch('name')} aria-invalid={!!shown('name')} />
      </Field>
      <Field label="Endpoint URL" id="conn-endpoint" error={shown('endpoint')}>
        <input id="conn-endpoint" className="text-input mono" type="url" autoComplete="off" spellCheck={false} value={form.endpoint} placeholder="https://catalog.example.com" onChange={(e) => update({ endpoint: e.target.value })} onBlur={() => touch('endpoint')} aria-invalid={!!shown('endpoint')} />
      </Field>
      <fieldset className="dialog-fieldset">
        <legend className="field-label">Authentication</legend>
        <div className="segmented" role="radiogroup" aria-label="Authentication">
          {(
            [
              ['api-key', 'API key'],
              ['bearer', 'Bearer token'],
              ['none', 'None'],
            ] as const
          ).map(([kind, label]) => (
            <label key={kind} className={form.authKind === kind ? 'segment checked' : 'segment'}>
              <input type="radio" name="auth-kind" value={kind} checked={form.authKind === kind} onChange={() => update({ authKind: kind })} />
              {label}
            </label>
          ))}
        </div>
        {form.authKind !== 'none' && (
          <Field label={secretLabel} id="conn-secret" error={shown('secret')} hint={form.authKind === 'api-key' ? 'Sent as the x-api-key header.' : 'Sent as Authorization: Bearer <token>.'}>
            {keepsSavedSecret(form) ? (
              <div className="saved-secret">
                <span className="saved-secret-dots" aria-label={`${secretLabel} saved`}>
                  ••••• saved
                </span>
                <button type="button" className="button" onClick={() => update({ replacingSecret: true, secret: '' })}>
                  Replace
                </button>
              </div>
            ) : (
              <div className="saved-secret">
                <input id="conn-secret" className="text-input mono" type="password" autoComplete="off" spellCheck={false} value={form.secret} onChange={(e) => update({ secret: e.target.value })} onBlur={() => touch('secret')} aria-invalid={!!shown('secret')} />
                {form.secretSaved && (
                  <button type="button" className="button" onClick={() => update({ replacingSecret: false, secret: '' })}>
                    Keep saved
                  </button>
                )}
              </div>
            )}
          </Field>
        )}
      </fieldset>
      <fieldset className="dialog-fieldset">
        <legend className="field-label">Database</legend>
        <div className="database-row">
          <select
            className="text-input"
            aria-label="Database selection"
            value={form.databaseKind}
            onChange={(e) => update({ databaseKind: e.target.value as ConnectionForm['databaseKind'] })}
          >
            <option value="none">None (the server’s default)</option>
            <option value="name">Database name (x-service-database)</option>
            <option value="prefix">Database prefix (x-service-database-prefix)</option>
          </select>
          {form.databaseKind !== 'none' && (
            <input className="text-input" aria-label={form.databaseKind === 'name' ? 'Database name' : 'Database prefix'} autoComplete="off" spellCheck={false} value={form.databaseValue} onChange={(e) => update({ databaseValue: e.target.value })} onBlur={() => touch('database')} aria-invalid={!!shown('database')} />
          )}
        </div>
        {shown('database') && <div className="field-error">{shown('database')}</div>}
      </fieldset>
      <fieldset className="dialog-fieldset">
        <legend className="field-label">Extra headers</legend>
        {form.headers.length === 0 && <p className="muted small">None. Add one if your server or proxy needs it.</p>}
        {form.headers.map((h, index) => (
          <div key={h.key} className="header-row-wrap">
            <div className="header-row">
              <input className="text-input mono" aria-label={`Header ${index + 1} name`} placeholder="X-Header-Name" autoComplete="off" spellCheck={false} value={h.name} onChange={(e) => updateHeader(index, { name: e.target.value })} onBlur={() => touch(`header.${index}.name`)} aria-invalid={!!shown(`header.${index}.name`)} />
              {h.secret && h.saved && !h.replacing ? (
                <span className="saved-secret">
                  <span className="saved-secret-dots">••••• saved</span>
                  <button type="button" className="button" onClick={() => updateHeader(index, { replacing: true, value: '' })}>
                    Replace
                  </button>
                </span>
              ) : (
                <input className="text-input mono" aria-label={`Header ${index + 1} value`} type={h.secret ? 'password' : 'text'} autoComplete="off" spellCheck={false} value={h.value} onChange={(e) => updateHeader(index, { value: e.target.value })} onBlur={() => touch(`header.${index}.value`)} aria-invalid={!!shown(`header.${index}.value`)} />
              )}
              <label className="checkbox">
                <input type="checkbox" checked={h.secret} onChange={(e) => updateHeader(index, { secret: e.target.checked, ...(e.target.checked ? {} : { replacing: true, value: '' }) })} />
                Secret
              </label>
              <button type="button" className="icon-button" aria-label={`Remove header ${index + 1}`} title="Remove" onClick={() => setForm((p) => ({ ...p, headers: p.headers.filter((_, i) => i !== index) }))}>
                <CloseIcon />
              </button>
            </div>
            {(shown(`header.${index}.name`) ?? shown(`header.${index}.value`)) && <div className="field-error">{shown(`header.${index}.name`) ?? shown(`header.${index}.value`)}</div>}
          </div>
        ))}
        <div>
          <button type="button" className="link-button" onClick={() => setForm((p) => ({ ...p, headers: [...p.headers, newHeaderRow()] }))}>
            + Add header
          </button>
        </div>
      </fieldset>
      {confirmWrite && (
        <div className="confirm-panel" role="alertdialog" aria-label="Confirm the write test">
          <p>
            <strong>This writes to the server.</strong> It creates a small table, lists the tables again to see it, then drops it.
          </p>
          <div className="dialog-actions-inline">
            <button type="button" className="button primary" onClick={() => void runTest(true)}>
              Create and drop a test table
            </button>
            <button type="button" className="button" onClick={() => setConfirmWrite(false)}>
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
    </ConnectionDialogShell>
  )
}

const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`

/** "The server has 42 tables: 2 at the root and 40 in 12 namespaces (3 at the top level)." */
function inventorySummary(report: VerificationReport): string {
  const inventory = report.inventory
  if (!inventory) return `The server lists ${count(report.tables.length, 'table', 'tables')} at the root.`
  const { rootTables, tablesInNamespaces, namespacesWalked } = inventory
  if (namespacesWalked === 0) {
    if (inventory.stoppedBy) return `The server lists ${count(rootTables, 'table', 'tables')} at the root; its namespaces could not be listed.`
    return `The server has ${count(rootTables, 'table', 'tables')}, all at the root (no namespaces).`
  }
  const total = rootTables + tablesInNamespaces
  const where = `${formatCount(rootTables)} at the root and ${formatCount(tablesInNamespaces)} in ${count(namespacesWalked, 'namespace', 'namespaces')}`
  if (inventory.complete) return `The server has ${count(total, 'table', 'tables')}: ${where} (${formatCount(inventory.rootNamespaces)} at the top level).`
  if (inventory.stoppedBy) return `The server has at least ${count(total, 'table', 'tables')}: ${where}, before an error stopped the count.`
  return `The server has at least ${count(total, 'table', 'tables')}: ${where} (the count stops at ${inventory.limit} namespaces; more remain).`
}

function errorTitle(action: Busy<'test' | 'write-test'>, error: AppErrorData, editing: boolean): string {
  if (action?.what === 'save') return error.code === 'unauthenticated' ? 'The server refused the credentials' : 'Could not save'
  // "Save & connect" saves only after connecting: say that nothing was saved or changed.
  const unchanged = action?.what === 'connect' ? (editing ? ' — the saved connection is unchanged' : ' — nothing was saved') : ''
  return `${error.code === 'unauthenticated' ? 'The server refused the credentials' : 'Could not connect'}${unchanged}`
}

/** The verification sequence's outcome: what the server holds, then each step in words. */
export function TestReport({ report }: { report: VerificationReport }) {
  const summary = report.ok ? `${inventorySummary(report)}${report.wrote ? ' The write round trip worked.' : ''}` : 'The test failed.'
  return (
    <section className={report.ok ? 'test-report ok' : 'test-report failed'} aria-label="Test result">
      <div className="test-summary">{summary}</div>
      <ol className="test-steps">
        {report.steps.map((step) => (
          <li key={step.step} className={step.ok ? 'step ok' : 'step failed'}>
            <span aria-hidden="true" className="step-mark">
              {step.ok ? '✓' : '✕'}
            </span>
            <span>{step.message}</span>
            <span className="muted small step-ms">{Math.round(step.ms)} ms</span>
          </li>
        ))}
      </ol>
      {report.error && <div className="field-error">{report.error.message}{report.error.hint ? ` ${report.error.hint}` : ''}</div>}
    </section>
  )
}
