import { randomUUID } from 'node:crypto'
import { AppError, isLiveJob, type AppErrorData, type Input, type JobInfo, type Method, type Output } from '../contract'
import type { CatalogService } from '../core/service'

/** How much one answer may hold, and how many calls run at once (`--max-calls`). */
export interface McpLimits {
  /** Calls that run at once; the rest wait their turn in order. */
  maxCalls: number
}

export const DEFAULT_LIMITS: McpLimits = { maxCalls: 4 }

/** What every tool, resource and prompt receives: the one catalog this server serves, through the contract. */
export interface McpContext {
  service: CatalogService
  /** The open connection (`--root` or `--rest`). */
  connectionId: string
  /** The catalog's name in resource URIs (`lance://<catalog>/…`): the directory's name or the server's host. */
  catalogName: string
  /** Where the catalog is (a path, a URI, or a REST endpoint without secrets). */
  location: string
  /** Write tools are listed, and the connection is writable, only when the server was started with `--allow-writes`. */
  allowWrites: boolean
  /** Folders `import_file` may read from (`--import-from`); none: `import_file` refuses. */
  importFrom: string[]
  gate: CallGate
}

/** An error a tool answers in words: the contract's message, its hint, and its code. */
export class ToolError extends Error {
  constructor(readonly data: AppErrorData) {
    super(`${data.message}${data.hint ? ` (${data.hint})` : ''} [${data.code}]`)
  }
}

/**
 * Call one contract method through the service (its zod schema checks the input; a read-only connection refuses
 * writes), throwing {@link ToolError} with the contract's words. With `signal`, a method that takes a `requestId` is
 * cancelled through `requests/cancel` when the client cancels or goes away (the same path the app's superseded reads
 * take).
 */
export async function call<M extends Method>(ctx: McpContext, method: M, input: Input<M>, signal?: AbortSignal): Promise<Output<M>> {
  signal?.throwIfAborted()
  const result = await ctx.service.dispatch(method, input)
  if (!result.ok) throw new ToolError(result.error)
  return result.value as Output<M>
}

/** As {@link call}, for the reads that take a `requestId`: the client's cancel (or disconnect) stops the scan. */
export async function cancellableCall<M extends 'tables/page' | 'tables/count' | 'namespaces/list' | 'tables/list' | 'sql/run'>(
  ctx: McpContext,
  method: M,
  input: Omit<Input<M>, 'requestId'>,
  signal: AbortSignal | undefined,
): Promise<Output<M>> {
  signal?.throwIfAborted()
  const requestId = `mcp-${randomUUID()}`
  const cancel = () => void ctx.service.dispatch('requests/cancel', { requestId })
  signal?.addEventListener('abort', cancel, { once: true })
  try {
    const result = await ctx.service.dispatch(method, { ...input, requestId })
    if (!result.ok) throw new ToolError(result.error)
    return result.value as Output<M>
  } finally {
    signal?.removeEventListener('abort', cancel)
  }
}

/**
 * Wait for a job started through the contract to end, cancelling it (`jobs/cancel`) when the client cancels or goes
 * away. Jobs publish every change through the registry; this reads `jobs/list` as the app's jobs panel would.
 */
export async function waitForJob(ctx: McpContext, jobId: string, signal: AbortSignal | undefined): Promise<JobInfo> {
  const cancel = () => void ctx.service.dispatch('jobs/cancel', { jobId })
  signal?.addEventListener('abort', cancel, { once: true })
  try {
    for (;;) {
      const jobs = await call(ctx, 'jobs/list', {})
      const job = jobs.find((j) => j.id === jobId)
      if (!job) throw new ToolError({ code: 'not_found', message: `Job ${jobId} is gone from the jobs list` })
      if (!isLiveJob(job)) return job
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  } finally {
    signal?.removeEventListener('abort', cancel)
  }
}

/**
 * At most `max` calls run at once; the rest wait in order (an assistant may fire many calls in parallel, and each
 * may scan a table). A caller that is cancelled while waiting leaves the queue without running.
 */
export class CallGate {
  private running = 0
  private readonly waiting: Array<() => void> = []

  constructor(readonly max: number) {
    if (!Number.isInteger(max) || max < 1) throw new AppError('invalid_input', `--max-calls must be a whole number of at least 1, got ${max}`)
  }

  get active(): number {
    return this.running
  }

  get queued(): number {
    return this.waiting.length
  }

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (this.running >= this.max) await this.turn(signal)
    else this.running += 1
    try {
      return await work()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.running -= 1
    }
  }

  private turn(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const go = () => {
        signal?.removeEventListener('abort', leave)
        resolve()
      }
      const leave = () => {
        const at = this.waiting.indexOf(go)
        if (at >= 0) this.waiting.splice(at, 1)
        reject(new ToolError({ code: 'cancelled', message: 'The call was cancelled while it waited for a free slot' }))
      }
      this.waiting.push(go)
      signal?.addEventListener('abort', leave, { once: true })
    })
  }
}
