import { useMutation } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { AppErrorData, SqlQueryInfo } from '../../../contract'
import { call, newRequestId } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { useConnections } from '../../queries/connections'
import { addHistory, cancelQuery, closeQuery, runQuery } from './mutations'
import type { Statement } from './statements'

/** How often a running query's status is read (rows so far, time, the end). */
const POLL_MS = 300

export type QueryRun =
  | { phase: 'idle' }
  | { phase: 'starting'; statement: Statement; startedAt: number }
  | { phase: 'result'; statement: Statement; info: SqlQueryInfo }
  | { phase: 'failed'; statement: Statement; error: AppErrorData }

/** One run: its cancel id before the query id is known, and whether it is still the view's. */
interface Token {
  requestId: string
  queryId: string | null
  live: boolean
}

/**
 * The query view's one query at a time: Run starts a statement (closing the last result: it holds memory in the
 * engine), a running query's status is read until it ends, Cancel stops it (before `sql/run` answers, through its
 * request id), and each run joins the catalog's history. Leaving the view closes its query.
 */
export function useSqlQuery(connectionId: string) {
  const [run, setRun] = useState<QueryRun>({ phase: 'idle' })
  const current = useRef<Token | null>(null)
  const { mutateAsync: start } = useMutation(runQuery)
  // Every open catalog: a statement may name another's table, lance('ns/t', catalog => 'label').
  const connections = useConnections()
  const { mutateAsync: cancelWrite } = useMutation(cancelQuery)
  const { mutate: close } = useMutation(closeQuery)
  const { mutate: remember } = useMutation(addHistory)

  const release = useCallback(() => {
    const token = current.current
    current.current = null
    if (!token) return
    token.live = false
    if (token.queryId) close({ queryId: token.queryId }, { onError: () => undefined })
  }, [close])
  useEffect(() => release, [release])

  const follow = useCallback(
    async (token: Token, statement: Statement, info: SqlQueryInfo) => {
      let latest = info
      // A result longer than the rows kept is done at the keep limit (capped): nothing more to follow.
      while (token.live && latest.state === 'running' && !latest.done) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS))
        if (!token.live) return
        latest = await call('sql/status', { queryId: latest.queryId })
        if (token.live) setRun({ phase: 'result', statement, info: latest })
      }
      if (!token.live) return
      const ok = latest.done
      if (latest.state === 'failed' && latest.error) setRun({ phase: 'failed', statement, error: latest.error as AppErrorData })
      remember({ connectionId, entry: { sql: statement.sql, ranAt: Date.now(), ok, ...(ok ? { rowCount: latest.rowCount ?? latest.rowsSoFar, elapsedMs: latest.elapsedMs } : {}) } }, { onError: () => undefined })
    },
    [connectionId, remember],
  )

  const execute = useCallback(
    (statement: Statement) => {
      release()
      const token: Token = { requestId: newRequestId(), queryId: null, live: true }
      current.current = token
      setRun({ phase: 'starting', statement, startedAt: performance.now() })
      start({ connectionId, sql: statement.sql, requestId: token.requestId, catalogs: connections.map((c) => c.id) })
        .then((info) => {
          if (!token.live) return void close({ queryId: info.queryId }, { onError: () => undefined })
          token.queryId = info.queryId
          setRun({ phase: 'result', statement, info })
          return follow(token, statement, info)
        })
        .catch((error: unknown) => {
          if (!token.live) return
          setRun({ phase: 'failed', statement, error: errorData(error) })
          remember({ connectionId, entry: { sql: statement.sql, ranAt: Date.now(), ok: false } }, { onError: () => undefined })
        })
    },
    [connectionId, connections, start, close, release, follow, remember],
  )

  const cancel = useCallback(() => {
    const token = current.current
    if (!token) return
    if (!token.queryId) {
      // Still starting: the run's request is stopped; its answer (a cancelled error) ends it.
      void call('requests/cancel', { requestId: token.requestId }).catch(() => undefined)
      return
    }
    cancelWrite({ queryId: token.queryId })
      .then((info) => {
        if (token.live && info) setRun((previous) => (previous.phase === 'result' ? { ...previous, info } : previous))
      })
      .catch(() => undefined)
  }, [cancelWrite])

  // A result past the rows kept is done at that limit (capped): it runs no further, so Run and Save as table… are free.
  const running = run.phase === 'starting' || (run.phase === 'result' && run.info.state === 'running' && !run.info.done)
  return { run, running, execute, cancel }
}
