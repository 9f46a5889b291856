import { AppError } from '../../../contract'
import { redactText } from '../../connections/redact'
import { errorFromNetwork, errorFromResponse, parseErrorBody } from './errors'
import type { CapabilityMap, Operation } from './capabilities'

export interface TransportOptions {
  /** `{base_url}`; a path prefix is kept (`http://h/base` → `/base/v1/...`). */
  uri: string
  /** Sent on every request (from the `headers.<Name>` properties). */
  headers: Record<string, string>
  delimiter: string
  /** Per-attempt timeout. */
  timeoutMs: number
  /** Extra attempts for reads (and for writes only when the server provably did nothing). */
  maxRetries: number
  /** First backoff step; doubles per attempt, with jitter. */
  backoffMs: number
  /** Longest Retry-After we are willing to sleep through; longer → a "throttled" error at once. */
  maxRetryAfterMs: number
  capabilities: CapabilityMap
  /** Aborted when the client is closed: every request in flight stops. */
  closed?: AbortSignal
}

export interface RequestSpec {
  operation: Operation
  /** Sentence fragment for errors: "list the tables of sales". */
  what: string
  method: 'GET' | 'POST'
  /** Path below the base URL, already encoded, starting with `/v1/`. */
  path: string
  query?: Record<string, string | number | undefined>
  /** A JSON body (optional fields must already be left out). */
  json?: unknown
  /** A raw body (Arrow IPC stream). */
  body?: Uint8Array
  contentType?: string
  /** Safe to repeat: reads. Writes are never retried blindly. */
  idempotent: boolean
  signal?: AbortSignal
  /** Accept header (default: JSON, Arrow file, anything). */
  accept?: string
  /** Whether `delimiter=` goes on the query (every namespace route; not the /v1/tables routes). */
  withDelimiter?: boolean
}

export interface RawResponse {
  status: number
  headers: Headers
  bytes: Uint8Array
}

/** Thin layer over the platform fetch (undici): timeouts, abort, bounded retries, error mapping. */
export class RestTransport {
  readonly base: URL
  private readonly secrets: string[]

  constructor(readonly options: TransportOptions) {
    let base: URL
    try {
      base = new URL(options.uri)
    } catch {
      throw new AppError('invalid_input', 'The endpoint is not a valid URL', { hint: 'Use the form https://host:port' })
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:')
      throw new AppError('invalid_input', `The endpoint must start with http:// or https:// (got ${base.protocol}//)`)
    if (base.username || base.password)
      throw new AppError('invalid_input', 'Put credentials in the API key or headers, not in the endpoint URL')
    base.search = ''
    base.hash = ''
    this.base = base
    this.secrets = Object.values(options.headers).filter((v) => v.length > 0)
  }

  /** The host for messages (never credentials). */
  get host(): string {
    return this.base.host
  }

  url(path: string, query: RequestSpec['query'], withDelimiter: boolean): string {
    const prefix = this.base.pathname.replace(/\/+$/, '')
    const params: string[] = []
    if (withDelimiter) params.push(`delimiter=${encodeURIComponent(this.options.delimiter)}`)
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.push(`${k}=${encodeURIComponent(String(v))}`)
    return `${this.base.origin}${prefix}${path}${params.length ? `?${params.join('&')}` : ''}`
  }

  redact(text: string): string {
    return redactText(text, this.secrets)
  }

  async request(spec: RequestSpec): Promise<RawResponse> {
    const known = this.options.capabilities.get(spec.operation)
    if (known && !known.supported) throw new AppError('unsupported', `This server does not support: ${known.label}`, { detail: known.reason })
    const url = this.url(spec.path, spec.query, spec.withDelimiter ?? true)
    const headers: Record<string, string> = { accept: spec.accept ?? 'application/json, application/vnd.apache.arrow.file, */*', ...this.options.headers }
    let body: Uint8Array | string | undefined
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(spec.json)
    } else if (spec.body !== undefined) {
      headers['content-type'] = spec.contentType ?? 'application/octet-stream'
      body = spec.body
    }
    for (let attempt = 0; ; attempt++) {
      spec.signal?.throwIfAborted?.()
      // One controller per attempt for the caller's signal, the client's close and the timeout
      // (cheaper than AbortSignal.any + AbortSignal.timeout on every request).
      const controller = new AbortController()
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        controller.abort()
      }, this.options.timeoutMs)
      const onAbort = () => controller.abort()
      spec.signal?.addEventListener('abort', onAbort, { once: true })
      this.options.closed?.addEventListener('abort', onAbort, { once: true })
      const cancelled = () => spec.signal?.aborted || this.options.closed?.aborted
      let response: Response
      let bytes: Uint8Array
      try {
        try {
          response = await fetch(url, { method: spec.method, headers, body, signal: controller.signal, redirect: 'manual' })
        } catch (error) {
          if (cancelled()) throw new AppError('cancelled', 'The request was cancelled', { cause: error })
          const failure = timedOut
            ? new AppError('timeout', `Could not ${spec.what}: ${this.host} did not answer within ${Math.round(this.options.timeoutMs / 1000)} s`, {
                hint: 'Check the endpoint and your network, then try again',
              })
            : errorFromNetwork(error, this.host, spec.what)
          // A refused connection never reached the server, so even a write may be repeated.
          const refused = failure.detail?.includes('ECONNREFUSED') ?? false
          if ((spec.idempotent || refused) && attempt < this.options.maxRetries) {
            await this.sleep(this.backoff(attempt), spec.signal)
            continue
          }
          throw this.clean(failure)
        }
        try {
          bytes = new Uint8Array(await response.arrayBuffer())
        } catch (error) {
          if (cancelled()) throw new AppError('cancelled', 'The request was cancelled', { cause: error })
          const failure = timedOut
            ? new AppError('timeout', `Could not ${spec.what}: ${this.host} stopped sending the reply`)
            : errorFromNetwork(error, this.host, spec.what)
          if (spec.idempotent && attempt < this.options.maxRetries) {
            await this.sleep(this.backoff(attempt), spec.signal)
            continue
          }
          throw this.clean(failure)
        }
      } finally {
        clearTimeout(timer)
        spec.signal?.removeEventListener('abort', onAbort)
        this.options.closed?.removeEventListener('abort', onAbort)
      }
      if (response.status >= 300 && response.status < 400) {
        // Never follow: a redirect to another host would carry the API key (x-api-key survives redirects).
        const target = response.headers.get('location')
        throw this.clean(
          new AppError('invalid_input', `The server redirects ${spec.method} requests elsewhere${target ? ` (to ${this.redact(target.split('?')[0]!)})` : ''}`, {
            hint: 'Use the final address as the endpoint (for example https:// instead of http://)',
            detail: `HTTP ${response.status}`,
          }),
        )
      }
      if (response.ok) {
        this.options.capabilities.markSupported(spec.operation)
        return { status: response.status, headers: response.headers, bytes }
      }
      const text = new TextDecoder().decode(bytes.subarray(0, 64 * 1024))
      const parsed = parseErrorBody(text)
      const code = parsed ? parsed.code : undefined
      const retryable = code === 17 || code === 21 || (!parsed && [429, 502, 503, 504].includes(response.status))
      const throttled = code === 21 || (!parsed && response.status === 429)
      if (retryable && attempt < this.options.maxRetries) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'))
        // Writes repeat only when the server said "throttled, come back later": it did nothing.
        if (spec.idempotent || (throttled && retryAfter !== undefined)) {
          if (retryAfter === undefined || retryAfter <= this.options.maxRetryAfterMs) {
            await this.sleep(retryAfter ?? this.backoff(attempt), spec.signal)
            continue
          }
        }
      }
      const serverText = parsed ? [parsed.error, parsed.detail].filter(Boolean).join(' — ') : text.slice(0, 500)
      const failure = errorFromResponse(response.status, parsed, spec.what, this.redact(serverText))
      if (throttled) {
        const retryAfter = parseRetryAfter(response.headers.get('retry-after'))
        if (retryAfter !== undefined) {
          failure.message = `${failure.message}; try again in ${Math.max(1, Math.ceil(retryAfter / 1000))} s`
        }
      }
      // "Unsupported", or 404 for the route itself (no error code: the object was not looked up).
      if (code === 0 || (!parsed && (response.status === 406 || response.status === 404 || response.status === 405 || response.status === 501))) {
        const reason = parsed?.error ? this.redact(parsed.error) : `HTTP ${response.status} for ${spec.method} ${spec.path.split('?')[0]}`
        this.options.capabilities.markUnsupported(spec.operation, reason)
        throw this.clean(new AppError('unsupported', `This server does not support: ${this.options.capabilities.label(spec.operation)}`, { detail: reason }))
      }
      throw this.clean(failure)
    }
  }

  /** Parse a JSON success body; an empty body counts as `{}` (lenient towards other servers). */
  async json<T>(spec: RequestSpec): Promise<T> {
    const { bytes } = await this.request(spec)
    const text = new TextDecoder().decode(bytes).trim()
    if (text === '') return {} as T
    try {
      return JSON.parse(text) as T
    } catch {
      throw new AppError('internal', `The server sent an unreadable reply to "${spec.what}" (not JSON)`, { detail: this.redact(text.slice(0, 300)) })
    }
  }

  private backoff(attempt: number): number {
    const base = this.options.backoffMs * 2 ** attempt
    return Math.min(5_000, base / 2 + Math.random() * base)
  }

  private clean(error: AppError): AppError {
    error.message = this.redact(error.message)
    return error
  }

  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new AppError('cancelled', 'The request was cancelled'))
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }, ms)
      const onAbort = () => {
        clearTimeout(timer)
        reject(new AppError('cancelled', 'The request was cancelled'))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
    })
  }
}

/** `Retry-After`: delta-seconds or an HTTP date; milliseconds, or undefined when absent/invalid. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const date = Date.parse(value)
  if (Number.isFinite(date)) return Math.max(0, date - Date.now())
  return undefined
}
