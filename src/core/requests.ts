import { AppError } from '../contract'
import type { Handlers } from './handlers'

/** Requests the renderer may cancel while they run (`requests/cancel`): counts, pages, plans, listings. */
export class CancellableRequests {
  private readonly inFlight = new Map<string, AbortController>()

  /** Run `work` with an AbortSignal that `requests/cancel` can trigger. */
  async run<T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController()
    if (requestId) this.inFlight.set(requestId, controller)
    try {
      const result = await work(controller.signal)
      if (controller.signal.aborted) throw new AppError('cancelled', 'The request was cancelled')
      return result
    } finally {
      if (requestId) this.inFlight.delete(requestId)
    }
  }

  abortAll(): void {
    for (const controller of this.inFlight.values()) controller.abort()
  }

  readonly handlers = {
    'requests/cancel': async ({ requestId }) => {
      this.inFlight.get(requestId)?.abort()
      return null
    },
  } satisfies Partial<Handlers>
}
