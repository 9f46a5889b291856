import { Pool, type Dispatcher } from 'undici'
import { AppError } from '../../../contract'
import { redactError, redactText } from '../../redact'
import { errorFromNetwork, errorFromResponse, parseErrorBody } from './errors'
import type { CapabilityMap, Operation } from './capabilities'

export interface TransportOptions {
  /** `{base_url}`; a path prefix is kept (`http://h/base` → `/base/v1/...`). */
  uri: string
  /** Sent on every request (from the `headers.<Name>` properties). */
  headers: Record<string, string>
  delimiter: string
  /**
   * Per attempt: the reply's headers must arrive within this time, and the body may not stall for longer
   * (connecting, TLS included, has the same limit).
   */
  timeoutMs: number
  /** Extra attempts for reads (and for writes only when the server provably did nothing). */
  maxRetries: number
  /** First backoff step; doubles per attempt, with jitter. */
  backoffMs: number
  /** Longest Retry-After we are willing to sleep through; longer → a "throttled" error at once. */
  maxRetryAfterMs: number
  /** Keep-alive connections to the server; more requests at once wait for a free one. */
  connections: number
  capabilities: CapabilityMap
  /** Aborted when the client is closed: retries waiting out a backoff stop (requests in flight stop through {@link RestTransport.close}). */
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
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>
  bytes: Uint8Array
}

/** A whole reply as it came off the socket: `body` may be a view into undici's read buffer. */
interface Reply {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

const DEFAULT_ACCEPT = 'application/json, application/vnd.apache.arrow.file, */*'

/** undici error codes that mean "we gave up on this request" rather than "the network failed". */
const CANCEL_CODES = new Set(['UND_ERR_ABORTED', 'ABORT_ERR', 'UND_ERR_DESTROYED', 'UND_ERR_CLOSED'])

/**
 * The HTTP layer: undici on a keep-alive connection pool of its own (one per client, one request per
 * connection at a time), with timeouts, cancellation, bounded retries and error mapping.
 * Not `fetch`: its WHATWG Request/Response/Headers/stream objects cost about a millisecond per request,
 * which is more than our server needs to answer a list on loopback. Not even undici's `request()`: its
 * body stream costs ~0.08 ms more per request than collecting the (small, always wanted whole) reply
 * in a dispatch handler, see {@link exchange}.
 */
export class RestTransport {
  readonly base: URL
  private readonly secrets: string[]
  private readonly pool: Pool
  /** The endpoint's path prefix, without a trailing slash. */
  private readonly prefix: string
  private readonly delimiterParam: string
  /** Configured headers, names in lower case (so ours never duplicate theirs under another case). */
  private readonly headers: Record<string, string>
  private isClosed = false

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
    this.prefix = base.pathname.replace(/\/+$/, '')
    this.delimiterParam = `delimiter=${encodeURIComponent(options.delimiter)}`
    this.headers = Object.fromEntries(Object.entries(options.headers).map(([k, v]) => [k.toLowerCase(), v]))
    this.secrets = Object.values(options.headers).filter((v) => v.length > 0)
    this.pool = new Pool(base.origin, {
      connections: Math.max(1, options.connections),
      pipelining: 1,
      // 0 = no limit for the reply; connecting then keeps undici's own 10 s limit.
      connect: { timeout: options.timeoutMs > 0 ? options.timeoutMs : undefined },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // Redirects are never followed: a plain dispatch does not (only undici's redirect interceptor would).
    })
  }

  /** The host for messages (never credentials). */
  get host(): string {
    return this.base.host
  }

  /** Path and query of a request, below the endpoint's origin. */
  pathOf(path: string, query: RequestSpec['query'], withDelimiter: boolean): string {
    let search = withDelimiter ? this.delimiterParam : ''
    if (query)
      for (const k in query) {
        const v = query[k]
        if (v !== undefined) search += `${search ? '&' : ''}${k}=${encodeURIComponent(String(v))}`
      }
    return `${this.prefix}${path}${search ? `?${search}` : ''}`
  }

  /** The full URL of a request (for messages and tests). */
  url(path: string, query: RequestSpec['query'], withDelimiter: boolean): string {
    return `${this.base.origin}${this.pathOf(path, query, withDelimiter)}`
  }

  redact(text: string): string {
    return redactText(text, this.secrets)
  }

  /** Stops every request in flight (they fail as "cancelled") and closes the connections. */
  async close(): Promise<void> {
    if (this.isClosed) return
    this.isClosed = true
    await this.pool.destroy()
  }

  /** A 2xx reply with its body bytes (a copy of their own); anything else throws an AppError. */
  async request(spec: RequestSpec): Promise<RawResponse> {
    const { status, headers, body } = await this.send(spec)
    // Copied out of undici's read buffer: the caller may keep or transfer `bytes.buffer`.
    return { status, headers, bytes: new Uint8Array(body) }
  }

  private async send(spec: RequestSpec): Promise<Reply> {
    const known = this.options.capabilities.get(spec.operation)
    if (known && !known.supported) throw new AppError('unsupported', `This server does not support: ${known.label}`, { detail: known.reason })
    const path = this.pathOf(spec.path, spec.query, spec.withDelimiter ?? true)
    const headers: Record<string, string> = { accept: spec.accept ?? DEFAULT_ACCEPT, ...this.headers }
    let body: Uint8Array | string | undefined
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json'
      body = JSON.stringify(spec.json)
    } else if (spec.body !== undefined) {
      headers['content-type'] = spec.contentType ?? 'application/octet-stream'
      body = spec.body
    }
    const cancelled = () => spec.signal?.aborted === true || this.isClosed
    for (let attempt = 0; ; attempt++) {
      if (cancelled()) throw new AppError('cancelled', this.isClosed ? 'This connection is closed' : 'The request was cancelled')
      let reply: Reply
      try {
        reply = await exchange(this.pool, { path, method: spec.method, headers, body }, spec.signal)
      } catch (error) {
        if (cancelled() || CANCEL_CODES.has(codeOf(error))) throw this.clean(new AppError('cancelled', 'The request was cancelled', { cause: error }))
        const failure = this.networkFailure(error, spec)
        // A refused connection never reached the server, so even a write may be repeated.
        const refused = codeOf(error) === 'ECONNREFUSED'
        if ((spec.idempotent || refused) && attempt < this.options.maxRetries) {
          await this.sleep(this.backoff(attempt), spec.signal)
          continue
        }
        throw this.clean(failure)
      }
      const { status, headers: replyHeaders, body: bytes } = reply
      if (status >= 300 && status < 400) {
        // Never follow: a redirect to another host would carry the API key (x-api-key survives redirects).
        const target = headerOf(replyHeaders, 'location')
        throw this.clean(
          new AppError('invalid_input', `The server redirects ${spec.method} requests elsewhere${target ? ` (to ${target.split('?')[0]!})` : ''}`, {
            hint: 'Use the final address as the endpoint (for example https:// instead of http://)',
            detail: `HTTP ${status}`,
          }),
        )
      }
      if (status >= 200 && status < 300) {
        this.options.capabilities.markSupported(spec.operation)
        return { status, headers: replyHeaders, body: bytes }
      }
      const text = bytes.subarray(0, 64 * 1024).toString('utf8')
      const parsed = parseErrorBody(text)
      const code = parsed ? parsed.code : undefined
      const retryable = code === 17 || code === 21 || (!parsed && [429, 502, 503, 504].includes(status))
      const throttled = code === 21 || (!parsed && status === 429)
      const retryAfter = parseRetryAfter(headerOf(replyHeaders, 'retry-after') ?? null)
      if (retryable && attempt < this.options.maxRetries) {
        // Writes repeat only when the server said "throttled, come back later": it did nothing.
        if (spec.idempotent || (throttled && retryAfter !== undefined)) {
          if (retryAfter === undefined || retryAfter <= this.options.maxRetryAfterMs) {
            await this.sleep(retryAfter ?? this.backoff(attempt), spec.signal)
            continue
          }
        }
      }
      const serverText = parsed ? [parsed.error, parsed.detail].filter(Boolean).join(' — ') : text.slice(0, 500)
      const failure = errorFromResponse(status, parsed, spec.what, this.redact(serverText))
      if (throttled && retryAfter !== undefined) {
        failure.message = `${failure.message}; try again in ${Math.max(1, Math.ceil(retryAfter / 1000))} s`
      }
      // "Unsupported", or 404 for the route itself (no error code: the object was not looked up).
      if (code === 0 || (!parsed && (status === 406 || status === 404 || status === 405 || status === 501))) {
        const reason = parsed?.error ? this.redact(parsed.error) : `HTTP ${status} for ${spec.method} ${spec.path.split('?')[0]}`
        this.options.capabilities.markUnsupported(spec.operation, reason)
        throw this.clean(new AppError('unsupported', `This server does not support: ${this.options.capabilities.label(spec.operation)}`, { detail: reason }))
      }
      throw this.clean(failure)
    }
  }

  /** Parse a JSON success body; an empty body counts as `{}` (lenient towards other servers). */
  async json<T>(spec: RequestSpec): Promise<T> {
    // Decoded straight from the reply's buffer (no copy).
    const text = (await this.send(spec)).body.toString('utf8')
    try {
      return JSON.parse(text) as T
    } catch {
      if (text.trim() === '') return {} as T
      throw new AppError('internal', `The server sent an unreadable reply to "${spec.what}" (not JSON)`, { detail: this.redact(text.slice(0, 300)) })
    }
  }

  /** A network-level failure in words; timeouts name the limit. */
  private networkFailure(error: unknown, spec: RequestSpec): AppError {
    const code = codeOf(error)
    const limit = formatSeconds(this.options.timeoutMs)
    if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
      return new AppError('timeout', `Could not ${spec.what}: ${this.host} did not answer within ${limit}`, {
        hint: 'Check the endpoint and your network, then try again',
        detail: code,
      })
    if (code === 'UND_ERR_BODY_TIMEOUT')
      return new AppError('timeout', `Could not ${spec.what}: ${this.host} stopped sending the reply (nothing for ${limit})`, { detail: code })
    return errorFromNetwork(error, this.host, spec.what)
  }

  private backoff(attempt: number): number {
    const base = this.options.backoffMs * 2 ** attempt
    return Math.min(5_000, base / 2 + Math.random() * base)
  }

  /** Secrets out of the message, detail, hint and stack. */
  private clean(error: AppError): AppError {
    return redactError(error, this.secrets)
  }

  private sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const closed = this.options.closed
    return new Promise((resolve, reject) => {
      if (signal?.aborted || closed?.aborted) return reject(new AppError('cancelled', 'The request was cancelled'))
      const done = () => {
        signal?.removeEventListener('abort', onAbort)
        closed?.removeEventListener('abort', onAbort)
      }
      const timer = setTimeout(() => {
        done()
        resolve()
      }, ms)
      const onAbort = () => {
        clearTimeout(timer)
        done()
        reject(new AppError('cancelled', 'The request was cancelled'))
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      closed?.addEventListener('abort', onAbort, { once: true })
    })
  }
}

/**
 * One request through the pool, the whole reply collected in a dispatch handler (one promise, no
 * stream). The timeouts are the pool's; a caller's signal settles the promise at once and aborts the
 * request as soon as undici has started it.
 */
function exchange(pool: Pool, options: Dispatcher.DispatchOptions, signal: AbortSignal | undefined): Promise<Reply> {
  return new Promise<Reply>((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined
    let settled = false
    let status = 0
    let headers: Reply['headers'] = {}
    const chunks: Buffer[] = []
    const abortReason = () => (signal?.reason instanceof Error ? signal.reason : Object.assign(new Error('The request was cancelled'), { code: 'UND_ERR_ABORTED' }))
    const onAbort = () => {
      controller?.abort(abortReason())
      finish(abortReason())
    }
    const finish = (error: Error | undefined, reply?: Reply) => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', onAbort)
      if (error) reject(error)
      else resolve(reply!)
    }
    if (signal) {
      if (signal.aborted) return finish(abortReason())
      signal.addEventListener('abort', onAbort, { once: true })
    }
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c
        if (settled) c.abort(abortReason())
      },
      onResponseStart(_c, statusCode, responseHeaders) {
        // 1xx replies come first and are overwritten by the final one.
        status = statusCode
        headers = responseHeaders
        chunks.length = 0
      },
      onResponseData(_c, chunk) {
        chunks.push(chunk)
      },
      onResponseEnd() {
        finish(undefined, { status, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) })
      },
      onResponseError(_c, error) {
        finish(error)
      },
    }
    try {
      pool.dispatch(options, handler)
    } catch (error) {
      finish(error instanceof Error ? error : new Error(String(error)))
    }
  })
}

/** One response header as a string (the first, when repeated). */
export function headerOf(headers: RawResponse['headers'], name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}

function codeOf(error: unknown): string {
  if (!error || typeof error !== 'object') return ''
  const e = error as { code?: unknown; name?: unknown }
  if (typeof e.code === 'string') return e.code
  return e.name === 'AbortError' ? 'ABORT_ERR' : ''
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${(ms / 1000).toFixed(1)} s`
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
