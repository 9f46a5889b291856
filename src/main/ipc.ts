import type { IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron'
import type { EventName, Events, Result } from '../contract'
import { EVENT_CHANNEL, INVOKE_CHANNEL, PORT_CHANNEL } from '../contract/channels'

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void
  on?(channel: string, listener: (event: IpcMainEvent, ...args: unknown[]) => void): void
}

export type Dispatch = (method: unknown, input: unknown) => Promise<Result<unknown>>

/**
 * Only the app's own window, main frame, at the app's own URL may call.
 * `getWindowContents` is read on every call: the window may be recreated (macOS activate).
 */
export function createSenderCheck(getWindowContents: () => WebContents | null, isAppUrl: (url: string) => boolean) {
  return (event: Pick<IpcMainInvokeEvent | IpcMainEvent, 'sender' | 'senderFrame'>): boolean => {
    const contents = getWindowContents()
    if (!contents || event.sender !== contents) return false
    const frame = event.senderFrame
    if (!frame || frame !== contents.mainFrame) return false
    return isAppUrl(frame.url)
  }
}

/**
 * The IPC adapter: one invoke channel, the sender check in this one wrapper (never per handler),
 * and the host's Result envelope passed through unchanged. Unknown methods and bad input are
 * refused by the catalog host's `dispatch` with a readable error.
 */
export function registerIpc(ipcMain: IpcMainLike, dispatch: Dispatch, isTrustedSender: (event: IpcMainInvokeEvent) => boolean): void {
  ipcMain.handle(INVOKE_CHANNEL, async (event, method, input) => {
    if (!isTrustedSender(event)) {
      return { ok: false, error: { code: 'permission_denied', message: 'This caller is not allowed to use the catalog API' } } satisfies Result<unknown>
    }
    // Binary values (Arrow IPC pages) arrive from the host as one exact ArrayBuffer (src/host/transfer.ts) and go on
    // as they are: the clone copies only the page, and the renderer decodes it in place.
    return dispatch(method, input)
  })
}

/**
 * The preload's request for a port to the catalog host: granted, by `connect(sender)`, only to the app's own window,
 * main frame, at the app's own URL — the same check every invoke passes.
 */
export function registerPortRequests(ipcMain: IpcMainLike, connect: (sender: WebContents) => void, isTrustedSender: (event: IpcMainEvent) => boolean): void {
  ipcMain.on?.(PORT_CHANNEL, (event) => {
    if (isTrustedSender(event)) connect(event.sender)
  })
}

/** Push an event to the renderer (progress of long work). */
export function sendEvent<E extends EventName>(contents: WebContents | null, event: E, payload: Events[E]): void {
  if (contents && !contents.isDestroyed()) contents.send(EVENT_CHANNEL, event, payload)
}
