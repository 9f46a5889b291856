import type { AppErrorData, EventName, JobInfo, Result } from '../contract'
import type { OpenedCatalog } from '../core/service'

/**
 * What main and the catalog host process say to each other (the desktop app runs the core in its own process:
 * src/host/index.ts, started by src/main/catalogHost.ts). Messages are structured-cloned (Electron's
 * `utilityProcess`); a page's bytes cross as one exact ArrayBuffer, never as a view on a larger one.
 */
export type ToHost =
  /** The first message: where the app keeps its files, and what a restarted host opens again. */
  | { t: 'start'; userData: string; version: string; reopen: OpenedCatalog[] | null; lostJobs: JobInfo[] }
  /** A renderer call (already past main's sender check); answered by `result` with the same id. */
  | { t: 'call'; id: number; method: unknown; input: unknown }
  /** Main's answer to an `ask`. */
  | { t: 'answer'; id: number; ok: true; value: unknown }
  | { t: 'answer'; id: number; ok: false; error: AppErrorData }
  /** The app is quitting: cancel the jobs, close the catalogs, exit. */
  | { t: 'stop' }
  /** Are you answering? (main's heartbeat: a host whose event loop is blocked cannot say `pong`) */
  | { t: 'ping'; at: number }
  /**
   * A port whose other end main gave to the window (posted with the port in its transfer list): the window's calls
   * come straight here over it (`PortCall` → `PortResult`), without a copy through main. Main hands a port only to
   * the app's own window, main frame, at the app's URL.
   */
  | { t: 'port' }

export type FromHost =
  /** Started: calls may come. */
  | { t: 'ready' }
  | { t: 'pong'; at: number }
  | { t: 'result'; id: number; result: Result<unknown> }
  /** An event for the window (`jobs/progress`). */
  | { t: 'event'; name: EventName; payload: unknown }
  /** The host needs main: a native dialog (attached to the window) or the keychain (safeStorage lives in main). */
  | { t: 'ask'; id: number; ask: HostAsk }
  /** The open catalogs changed: main keeps the list to open them again after a restart. */
  | { t: 'catalogs'; open: OpenedCatalog[] }

/** A renderer call over its port, and its answer (Arrow pages as one exact ArrayBuffer, as over main). */
export interface PortCall {
  id: number
  method: unknown
  input: unknown
}
export interface PortResult {
  id: number
  result: Result<unknown>
}

export type FileFilters = { name: string; extensions: string[] }[]

export type HostAsk =
  | { op: 'pickDirectory' }
  | { op: 'pickFiles'; filters?: FileFilters }
  | { op: 'saveFile'; defaultName?: string; filters?: FileFilters }
  | { op: 'secret.get'; key: string }
  | { op: 'secret.set'; key: string; value: string }
  | { op: 'secret.delete'; key: string }

/** The file main starts as the catalog host (beside out/main/index.js in the build: electron.vite.config.ts). */
export const HOST_ENTRY = 'host.js'
