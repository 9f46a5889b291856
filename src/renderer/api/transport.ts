import { AppError, type Method, type Result } from '../../contract'

/**
 * How a call reaches the host. In Electron: the preload's `window.catalog`. In a plain browser
 * (the harness used by tests and benchmarks): HTTP on the same origin with the per-run token
 * found in the URL fragment.
 */
export interface Transport {
  readonly kind: 'electron' | 'harness'
  invoke(method: Method, input: unknown, signal?: AbortSignal): Promise<Result<unknown>>
}

const ARROW_STREAM = 'application/vnd.apache.arrow.stream'

export function harnessToken(): string {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ''))
  return params.get('token') ?? ''
}

const harnessTransport: Transport = {
  kind: 'harness',
  async invoke(method, input, signal) {
    let response: Response
    try {
      response = await fetch(`/api/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-harness-token': harnessToken() },
        body: JSON.stringify(input ?? {}),
        signal,
      })
    } catch (error) {
      if (signal?.aborted) throw error
      throw new AppError('unavailable', 'The catalog host is not reachable', {
        hint: 'Restart the harness and open the URL it prints',
        detail: String(error),
      })
    }
    if ((response.headers.get('content-type') ?? '').startsWith(ARROW_STREAM)) {
      return { ok: true, value: new Uint8Array(await response.arrayBuffer()) }
    }
    return (await response.json()) as Result<unknown>
  },
}

function electronTransport(bridge: NonNullable<Window['catalog']>): Transport {
  return {
    kind: 'electron',
    // IPC has no abort; a cancelled call is dropped by the client (and cancelled in main via requests/cancel).
    // Binary values arrive as an ArrayBuffer (src/main/ipc.ts, forTransfer): a view on it, no copy.
    invoke: async (method, input) => {
      const result = (await bridge.invoke(method, input as never)) as Result<unknown>
      return result.ok && result.value instanceof ArrayBuffer ? { ok: true, value: new Uint8Array(result.value) } : result
    },
  }
}

/**
 * The desktop app without its bridge: the preload failed (main passes its error in the `bridge-error` query), or the
 * page is the app's own file:// page (where the harness never is) and window.catalog is missing. Every call fails
 * and says why, instead of falling back to the harness transport, which cannot reach anything there.
 */
function missingBridgeTransport(reason: string): Transport {
  const error = {
    code: 'unavailable' as const,
    message: `The app could not start its bridge to the catalog: ${reason}`,
    hint: 'The app is damaged or was built wrongly: reinstall it, and report this error if it stays',
    detail: reason,
  }
  return { kind: 'electron', invoke: () => Promise.resolve({ ok: false, error }) }
}

function bridgeFailure(): string | null {
  const reported = new URLSearchParams(window.location.search).get('bridge-error')
  if (reported !== null) return reported || 'the preload failed'
  return window.location.protocol === 'file:' ? 'the preload did not expose window.catalog' : null
}

function chooseTransport(): Transport {
  if (window.catalog) return electronTransport(window.catalog)
  const failure = bridgeFailure()
  return failure === null ? harnessTransport : missingBridgeTransport(failure)
}

export const transport: Transport = chooseTransport()
