import type { EventName, Events, Input, Method, Output, Result } from '../contract'

/**
 * What the preload exposes as `window.catalog`: task-shaped, typed from the contract.
 * Never `ipcRenderer`, `fs` or `path`.
 */
export interface CatalogBridge {
  invoke<M extends Method>(method: M, input: Input<M>): Promise<Result<Output<M>>>
  /** Subscribe to a main → renderer event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void
  /** The filesystem path of a dropped file or folder (Electron's webUtils.getPathForFile). */
  getPathForFile(file: File): string
}

declare global {
  interface Window {
    catalog?: CatalogBridge
  }
}
