import type { EventName, Events } from '../../contract'
import { harnessToken } from './transport'

/**
 * Harness events: one EventSource on `GET /api/events` shared by every subscriber, opened on
 * the first subscription. EventSource cannot send headers, so the token goes in the query
 * (the harness accepts it there for this route only). It reconnects by itself after errors.
 */
let source: EventSource | null = null
const listeners = new Map<string, Set<(payload: unknown) => void>>()

function ensureSource(): EventSource {
  if (!source) source = new EventSource(`/api/events?token=${encodeURIComponent(harnessToken())}`)
  return source
}

export function onHarnessEvent<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
  const es = ensureSource()
  let set = listeners.get(event)
  if (!set) {
    const created = new Set<(payload: unknown) => void>()
    listeners.set(event, created)
    es.addEventListener(event, (message: MessageEvent<string>) => {
      let payload: unknown
      try {
        payload = JSON.parse(message.data)
      } catch {
        return
      }
      for (const fn of created) fn(payload)
    })
    set = created
  }
  const wrapped = listener as (payload: unknown) => void
  set.add(wrapped)
  return () => {
    set.delete(wrapped)
  }
}
