import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useEffect, useSyncExternalStore } from 'react'
import type { HostStatus } from '../../contract'
import { onHostEvent } from '../api'
import { restartHost } from './mutations'
import { errorData } from '../components/ErrorPanel'
import { Spinner } from '../components/Spinner'

/**
 * The desktop app's catalog host (the process that reads the catalogs) as the window knows it: running, or stopped
 * with why. Main sends `host/status`; the harness never does. `restarts` counts new hosts, so views can start over.
 */
let status: HostStatus = { state: 'running', restarts: 0 }
let restarts = 0
const listeners = new Set<() => void>()
const setStatus = (next: HostStatus) => {
  status = next
  if (next.state === 'running') restarts = next.restarts
  for (const listener of listeners) listener()
}
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useHostStatus(): HostStatus {
  return useSyncExternalStore(subscribe, () => status)
}

/** How many times the host was started again: the content pane remounts on a change, so each open view reads anew. */
export function useHostRestarts(): number {
  return useSyncExternalStore(subscribe, () => restarts)
}

/**
 * Says, at the top of the window, that the catalog host stopped and why (or has stopped answering), and offers to
 * start it again. The new host
 * opens the catalogs that were open under the same ids, so the tree and the open table come back as they were; every
 * cached read is then fetched again.
 */
export function HostStatusBanner() {
  const client = useQueryClient()
  const current = useHostStatus()
  const restarting = useMutation(restartHost)
  const error = restarting.error ? errorData(restarting.error) : null
  useEffect(
    () =>
      // A host running again (restarted by the button, or by main after a crash) has none of the old one's
      // state: every cached read is read again (the rule of `app/restartHost` points here).
      onHostEvent('host/status', (next) => {
        setStatus(next)
        if (next.state === 'running') void client.invalidateQueries()
      }),
    [client],
  )
  if (current.state === 'running') return null
  const restart = () => restarting.mutate({})
  return (
    <section className="notice-banner" role="alert" aria-label={current.state === 'stopped' ? 'The catalog host stopped' : 'The catalog host is not answering'}>
      <div className="notice-banner-text">
        <strong>{current.message}</strong>
        {current.state === 'stopped' && current.detail && <div className="muted notice-banner-detail">Why: {current.detail}</div>}
        {current.state === 'unresponsive' && (
          <div className="muted notice-banner-detail">
            No answer for {current.silentSeconds} s. Wait for it, or restart it: the open catalogs open again, and a job it is running stops.
          </div>
        )}
        {error && <div className="field-error">Could not start it again: {error.message}</div>}
      </div>
      <button type="button" className="button primary" disabled={restarting.isPending} onClick={restart}>
        {restarting.isPending && <Spinner label="Restarting" />} Restart the catalog host
      </button>
    </section>
  )
}
