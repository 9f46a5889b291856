import type { EventName, Events } from '../contract'

type Listener = (name: EventName, payload: unknown) => void

/**
 * The harness's stand-in for Electron's `webContents.send`: the service publishes contract events
 * here and every open `GET /api/events` stream (Server-Sent Events) forwards them to its page.
 */
export class EventHub {
  private readonly listeners = new Set<Listener>()

  publish<E extends EventName>(name: E, payload: Events[E]): void {
    for (const listener of this.listeners) listener(name, payload)
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => {
      this.listeners.delete(listener)
    }
  }
}
