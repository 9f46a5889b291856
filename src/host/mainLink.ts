import { AppError, type AppErrorData } from '../contract'
import type { SecretStore } from '../core'
import type { FromHost, HostAsk, ToHost } from './protocol'

/** Electron's `MessagePortMain`, as a utility process receives one. */
export interface HostPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void
  on(event: 'close', listener: () => void): void
  postMessage(message: unknown): void
  start(): void
  close(): void
}

/** Electron's `process.parentPort` in a utility process: messages arrive as `{ data, ports }`. */
interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown; ports?: HostPort[] }) => void): void
  postMessage(message: unknown): void
}

/**
 * The host's one line to main: Electron's `process.parentPort` (a utility process has no `process.send`).
 * Main's answers to the host's own questions (`ask`: dialogs, the keychain) are matched by id here.
 */
export class MainLink {
  private readonly port: ParentPort
  private nextAsk = 1
  private readonly asking = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>()

  constructor() {
    const port = (process as unknown as { parentPort?: ParentPort }).parentPort
    if (!port) throw new Error('the catalog host runs only as a utility process of the app (process.parentPort is missing)')
    this.port = port
  }

  onMessage(listener: (message: ToHost, ports: HostPort[]) => void): void {
    this.port.on('message', (event) => listener(event.data as ToHost, event.ports ?? []))
  }

  /**
   * Main has gone. Under Electron a utility process ends with the app, so this fires only where the host was
   * started as a Node child with an IPC channel (the desktop test rig): its `disconnect`.
   */
  onDisconnect(listener: () => void): void {
    process.on('disconnect', listener)
  }

  post(message: FromHost): void {
    try {
      this.port.postMessage(message)
    } catch {
      // Main has gone (its end of the port closed): nobody is left to tell.
    }
  }

  /** Ask main and wait for its answer (a dialog waits for the user). */
  ask<T>(ask: HostAsk): Promise<T> {
    const id = this.nextAsk++
    return new Promise<T>((resolve, reject) => {
      this.asking.set(id, { resolve: resolve as (value: unknown) => void, reject })
      this.post({ t: 'ask', id, ask })
    })
  }

  settle(answer: Extract<ToHost, { t: 'answer' }>): void {
    const waiting = this.asking.get(answer.id)
    this.asking.delete(answer.id)
    if (!waiting) return
    if (answer.ok) waiting.resolve(answer.value)
    else waiting.reject(AppError.fromData(answer.error as AppErrorData))
  }

  /** Saved secrets through main, which alone can reach safeStorage (the OS keychain); never kept here. */
  secretStore(): SecretStore {
    return {
      get: (key) => this.ask<string | undefined>({ op: 'secret.get', key }),
      set: (key, value) => this.ask<void>({ op: 'secret.set', key, value }),
      delete: (key) => this.ask<void>({ op: 'secret.delete', key }),
    }
  }
}
