import { tableFromIPC, type Table } from 'apache-arrow'
import { AppError, type Input, type Method, type Output, type TableRef, type TableViewSpec } from '../../contract'
import { transport } from './transport'
import { onHarnessEvent } from './harnessEvents'
import { warmDecoderWhenIdle } from './warmup'

export { uploadFile, type UploadProgress } from './upload'

export { AppError }
export const hostKind = transport.kind

warmDecoderWhenIdle()

/** Call a contract method; resolves with its output or rejects with the rebuilt AppError. */
export async function call<M extends Method>(method: M, input: Input<M>, signal?: AbortSignal): Promise<Output<M>> {
  const result = await transport.invoke(method, input, signal)
  if (signal?.aborted) throw abortError()
  if (!result.ok) throw AppError.fromData(result.error)
  return result.value as Output<M>
}

let requestCounter = 0
/** A fresh id for a request that `requests/cancel` may stop. */
export function newRequestId(): string {
  requestCounter += 1
  return `r${Date.now().toString(36)}-${requestCounter}`
}

export function abortError(): Error {
  return new DOMException('The request was cancelled', 'AbortError')
}

export function isAbort(error: unknown): boolean {
  return (error instanceof DOMException && error.name === 'AbortError') || (error instanceof AppError && error.code === 'cancelled')
}

/**
 * Call a method that takes a `requestId`: aborting `signal` asks the host to stop the work
 * (`requests/cancel`) and the late answer, if any, is ignored.
 */
export async function cancellable<M extends 'tables/page' | 'tables/count' | 'namespaces/list' | 'tables/list'>(
  method: M,
  input: Omit<Input<M>, 'requestId'>,
  signal?: AbortSignal,
): Promise<Output<M>> {
  const requestId = newRequestId()
  const onAbort = () => {
    void transport.invoke('requests/cancel', { requestId }).catch(() => undefined)
  }
  signal?.addEventListener('abort', onAbort, { once: true })
  try {
    if (signal?.aborted) throw abortError()
    return await call(method, { ...input, requestId } as Input<M>, signal)
  } finally {
    signal?.removeEventListener('abort', onAbort)
  }
}

/** Rows `[offset, offset + limit)` of a table (through `view`: its version, filter, sort, search), decoded from Arrow IPC. */
export async function readPage(ref: TableRef, offset: number, limit: number, signal?: AbortSignal, view?: TableViewSpec): Promise<Table> {
  const bytes = await cancellable('tables/page', { ...ref, namespace: [...ref.namespace], offset, limit, ...(view ? { view } : {}) }, signal)
  return tableFromIPC(aligned(bytes))
}

/**
 * apache-arrow decodes a column in place only when its buffer is aligned to the element size, and copies it
 * otherwise, one allocation per buffer. Our hosts send pages at offset 0 of their own buffer; should one not,
 * one copy of the whole page here beats a copy per column.
 */
function aligned(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset % 8 === 0 ? bytes : bytes.slice()
}

/** Every item of a paged listing, following each page token; `onPage` sees progress as pages arrive. */
export async function listAllPages(
  method: 'namespaces/list' | 'tables/list',
  input: Omit<Input<'namespaces/list'>, 'pageToken' | 'requestId'>,
  onPage: (itemsSoFar: string[]) => void,
  signal?: AbortSignal,
): Promise<string[]> {
  const items: string[] = []
  const seen = new Set<string>()
  let pageToken: string | undefined
  do {
    const page = await cancellable(method, { ...input, pageToken }, signal)
    for (const item of page.items) {
      if (!seen.has(item)) {
        seen.add(item)
        items.push(item)
      }
    }
    // A token that does not move would loop forever: treat it as the end.
    pageToken = page.pageToken && page.pageToken !== pageToken ? page.pageToken : undefined
    if (pageToken) onPage([...items])
  } while (pageToken)
  return items
}

/** Subscribe to a host event: over the preload in Electron, over Server-Sent Events in the harness. */
export function onHostEvent<E extends import('../../contract').EventName>(
  event: E,
  listener: (payload: import('../../contract').Events[E]) => void,
): () => void {
  if (window.catalog) return window.catalog.on(event, listener)
  // The desktop app without its bridge has no events to hear (every call says why; see transport.ts).
  return transport.kind === 'harness' ? onHarnessEvent(event, listener) : () => undefined
}

/** The filesystem path of a dropped folder, where the host can tell it (Electron). */
export function pathForDroppedFile(file: File): string | null {
  if (!window.catalog) return null
  const path = window.catalog.getPathForFile(file)
  return path || null
}
