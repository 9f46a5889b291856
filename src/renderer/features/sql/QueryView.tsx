import { useQuery } from '@tanstack/react-query'
import { useMemo, useRef, useState } from 'react'
import type { AppErrorData, SqlExplain } from '../../../contract'
import { call } from '../../api'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { useConnections } from '../../queries/connections'
import { completionSchema } from './completion'
import { ExplainPanel } from './ExplainPanel'
import { queryDraft } from './drafts'
import { QueryResult } from './QueryResult'
import { ResultDock } from './ResultDock'
import { QueryToolbar } from './QueryToolbar'
import { SaveAsTableDialog, type SaveSource } from './SaveAsTableDialog'
import { sqlNamesQuery } from './queries'
import { SqlEditor, type SqlEditorHandle } from './SqlEditor'
import { errorPosition, errorSpan, statusText } from './status'
import type { Statement } from './statements'
import { useResultViews } from './useResultViews'
import { useSqlQuery } from './useSqlQuery'
import './sql.css'

type Explained = { statement: Statement; plan: SqlExplain | null; error: AppErrorData | null } | null

/**
 * The query view: the SQL editor (the `textbox` **SQL**), **Run** / **Cancel** / **Explain** / **Save as table…** /
 * **History**, an error as an `alert` naming its line and column (the editor underlines its span), the result as the
 * grid **Result** (with the table's Summary, Map and Export… on it: ResultDock) or Explain's plan, and a `status`
 * with the row count and the time taken.
 */
export function QueryView({ connectionId, connectionLabel, draftKey }: { connectionId: string; connectionLabel: string; draftKey: string }) {
  const editor = useRef<SqlEditorHandle>(null)
  const names = useQuery(sqlNamesQuery(connectionId)).data
  const schema = useMemo(() => (names ? completionSchema(names) : {}), [names])
  const query = useSqlQuery(connectionId)
  const connections = useConnections()
  const { run, running } = query
  // The table's Summary, Map and Export… on the result (contributions: this view imports none of them).
  const views = useResultViews(run.phase === 'result' ? run.info : null)
  // The whole text as it was at Run: the error's line and column are counted in it.
  const [ranText, setRanText] = useState('')
  const [explained, setExplained] = useState<Explained>(null)
  const [saving, setSaving] = useState<SaveSource | null>(null)
  const [empty, setEmpty] = useState<string | null>(null)

  const current = (): Statement | null => {
    const statement = editor.current?.statement() ?? null
    setEmpty(statement ? null : 'Write a statement first: the editor has no SQL under the caret.')
    return statement
  }
  const execute = () => {
    const statement = current()
    if (!statement) return
    setRanText(editor.current?.text() ?? '')
    setExplained(null)
    query.execute(statement)
  }
  const explain = () => {
    const statement = current()
    if (!statement) return
    setExplained({ statement, plan: null, error: null })
    call('sql/explain', { connectionId, sql: statement.sql, catalogs: connections.map((c) => c.id) })
      .then((plan) => setExplained((e) => (e?.statement === statement ? { statement, plan, error: null } : e)))
      .catch((error: unknown) => setExplained((e) => (e?.statement === statement ? { statement, plan: null, error: errorData(error) } : e)))
  }
  const saveAs = () => {
    if (run.phase === 'result' && run.info.state === 'done') return setSaving({ queryId: run.info.queryId })
    const statement = current()
    if (statement) setSaving({ sql: statement.sql })
  }

  const position = errorPosition(run, ranText)
  return (
    <section className="query-view" aria-label="Query">
      <header className="table-header">
        <div className="table-title">
          <h1 className="table-name">Query</h1>
          <div className="table-path">{connectionLabel}</div>
        </div>
        <QueryToolbar connectionId={connectionId} views={run.phase === 'result' ? views : null} actions={{ running, run: execute, cancel: query.cancel, explain, saveAs, recall: (sql) => editor.current?.setText(sql) }} />
      </header>
      <div className="sql-editor-pane">
        <SqlEditor handle={editor} initial={queryDraft.get(draftKey)} schema={schema} errorSpan={errorSpan(run)} onRun={execute} onChange={(text) => queryDraft.set(draftKey, text)} />
      </div>
      {empty && <div className="sql-note muted">{empty}</div>}
      {run.phase === 'failed' && run.error.code !== 'cancelled' && (
        <div className="sql-error">
          <ErrorPanel error={run.error} title={position ? `Error at line ${position.line}, column ${position.column}` : 'The query failed'} compact />
        </div>
      )}
      <div className="query-body">
        {explained ? (
          explained.plan ? (
            <ExplainPanel explain={explained.plan} onClose={() => setExplained(null)} />
          ) : explained.error ? (
            <div className="placeholder">
              <ErrorPanel error={explained.error} title="Could not explain this statement" />
            </div>
          ) : (
            <div className="placeholder">
              <Spinner /> Explaining…
            </div>
          )
        ) : run.phase === 'result' ? (
          <ResultDock views={views} info={run.info} grid={<QueryResult info={run.info} selectRow={views.selectRow} />} />
        ) : (
          <div className="placeholder muted">{run.phase === 'starting' ? 'Running…' : 'The result shows here.'}</div>
        )}
      </div>
      <footer className="status-bar">
        <span role="status" aria-label="Query status" className="sql-status">
          {running && <Spinner label="Running" />} {statusText(run, ranText)}
        </span>
      </footer>
      {saving && <SaveAsTableDialog connectionId={connectionId} source={saving} onClose={() => setSaving(null)} />}
    </section>
  )
}
