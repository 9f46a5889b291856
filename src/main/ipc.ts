import type { IpcMainInvokeEvent, WebContents } from 'electron'
import { fail, type EventName, type Events, type Result } from '../contract'
import { exactArrayBuffer } from '../core/arrow'

export const INVOKE_CHANNEL = 'catalog:invoke'
export const EVENT_CHANNEL = 'catalog:event'

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void
}

export type Dispatch = (method: unknown, input: unknown) => Promise<Result<unknown>>

/**
 * Only the app's own window, main frame, at the app's own URL may call.
 * `getWindowContents` is read on every call: the window may be recreated (macOS activate).
 */
export function createSenderCheck(getWindowContents: () => WebContents | null, isAppUrl: (url: string) => boolean) {
  return (event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>): boolean => {
    const contents = getWindowContents()
    if (!contents || event.sender !== contents) return false
    const frame = event.senderFrame
    if (!frame || frame !== contents.mainFrame) return false
    return isAppUrl(frame.url)
  }
}

/**
 * The IPC adapter: one invoke channel, the sender check in this one wrapper (never per handler),
 * and the service's Result envelope passed through unchanged. Unknown methods and bad input are
 * refused by `dispatch` with a readable error.
 */
export function registerIpc(ipcMain: IpcMainLike, dispatch: Dispatch, isTrustedSender: (event: IpcMainInvokeEvent) => boolean): void {
  ipcMain.handle(INVOKE_CHANNEL, async (event, method, input) => {
    if (!isTrustedSender(event)) {
      return fail({ code: 'permission_denied', message: 'This caller is not allowed to use the catalog API' })
    }
    return forTransfer(await dispatch(method, input))
  })
}

/**
 * Binary values (Arrow IPC pages) cross as one exact ArrayBuffer: the clone then copies only the page and
 * the renderer decodes it in place (src/renderer/api/transport.ts wraps it back into a Uint8Array).
 */
export function forTransfer(result: Result<unknown>): Result<unknown> {
  return result.ok && result.value instanceof Uint8Array ? { ok: true, value: exactArrayBuffer(result.value) } : result
}

/** Push an event to the renderer (progress of long work). */
export function sendEvent<E extends EventName>(contents: WebContents | null, event: E, payload: Events[E]): void {
  if (contents && !contents.isDestroyed()) contents.send(EVENT_CHANNEL, event, payload)
}
