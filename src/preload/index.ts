// A sandboxed preload gets a `require` that loads only `electron`, `events`, `timers` and `url`: import
// `electron` and dependency-free local modules (bundled in) only, everything else `import type` (see the lint
// rule for src/preload and tests/main/preload-sandbox.test.ts, which loads the built file under those rules).
import { contextBridge, ipcRenderer, webUtils } from 'electron'
import type { EventName, Events, Result } from '../contract'
import { EVENT_CHANNEL, INVOKE_CHANNEL, LINK_CHANNEL, PORT_CHANNEL } from '../contract/channels'
import { answersBytes, isMethodName } from '../contract/methods'
import type { PortCall, PortResult } from '../host/protocol'
import type { CatalogBridge } from './api'


/** A DOM MessagePort, as the preload uses it (typed here: this program is checked without the DOM's types). */
interface WindowPort {
  postMessage(message: unknown): void
  close(): void
  onmessage: ((event: { data: PortResult }) => void) | null
}

/**
 * The window's own line to the catalog host, once main has given one (it gives it only to the app's page): the calls
 * that answer bytes (table pages, a map's coordinates, an import's first rows) go over it straight to the host, so
 * those bytes are not copied through main on their way. Every other call, and every call until the port comes, goes
 * through main's invoke channel (main sees the app's control calls; the bytes are the heavy part).
 */
let port: WindowPort | null = null
let nextCall = 1
const waiting = new Map<number, (result: Result<unknown>) => void>()

/** The host behind the port has gone (stopped, or replaced by a restart): its calls are answered in words, not left waiting. */
function dropPort(message: string): void {
  port?.close()
  port = null
  for (const resolve of waiting.values()) resolve({ ok: false, error: { code: 'unavailable', message, hint: 'Try again once the catalog host runs' } })
  waiting.clear()
}

ipcRenderer.on(PORT_CHANNEL, (event) => {
  const fresh = event.ports[0] as unknown as WindowPort | undefined
  if (!fresh) return
  if (port) dropPort('The catalog host was restarted while this call ran')
  port = fresh
  port.onmessage = (message) => {
    const resolve = waiting.get(message.data.id)
    waiting.delete(message.data.id)
    resolve?.(message.data.result)
  }
})
ipcRenderer.on(EVENT_CHANNEL, (_e: unknown, name: unknown, payload: unknown) => {
  if (name === 'host/status' && (payload as Events['host/status']).state === 'stopped') dropPort('The catalog host stopped while this call ran')
})
// Ask main for the port now; calls made before it comes go through main.
ipcRenderer.send(PORT_CHANNEL)

// Links to a view (main's LinkInbox): kept until the page listens for `app/openLink` (React subscribes after the
// first render), then handed on as they come. Asked for once, now: main answers with those that came before.
const heldLinks: string[] = []
const linkListeners = new Set<(payload: Events['app/openLink']) => void>()
ipcRenderer.on(LINK_CHANNEL, (_e: unknown, url: unknown) => {
  if (typeof url !== 'string') return
  if (linkListeners.size === 0) heldLinks.push(url)
  for (const listener of linkListeners) listener({ url })
})
ipcRenderer.send(LINK_CHANNEL)

function onLink(listener: (payload: Events['app/openLink']) => void): () => void {
  linkListeners.add(listener)
  for (const url of heldLinks.splice(0)) listener({ url })
  return () => {
    linkListeners.delete(listener)
  }
}

function overPort(open: WindowPort, method: string, input: unknown): Promise<Result<unknown>> {
  const id = nextCall++
  return new Promise((resolve, reject) => {
    waiting.set(id, resolve)
    try {
      open.postMessage({ id, method, input } satisfies PortCall)
    } catch {
      // What structured clone refuses never leaves the page, as over ipcRenderer.invoke.
      waiting.delete(id)
      reject(new Error('An object could not be cloned.'))
    }
  })
}

const bridge: CatalogBridge = {
  invoke(method, input) {
    // Refuse unknown methods here too, so a typo never reaches main.
    if (!isMethodName(method)) {
      return Promise.resolve({ ok: false, error: { code: 'invalid_input', message: `Unknown method ${String(method)}` } })
    }
    if (port && answersBytes(method)) return overPort(port, method, input) as never
    return ipcRenderer.invoke(INVOKE_CHANNEL, method, input)
  },
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
    if (event === 'app/openLink') return onLink(listener as (payload: Events['app/openLink']) => void)
    const wrapped = (_e: unknown, name: unknown, payload: unknown) => {
      if (name === event) listener(payload as Events[E])
    }
    ipcRenderer.on(EVENT_CHANNEL, wrapped)
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, wrapped)
    }
  },
  getPathForFile(file) {
    return webUtils.getPathForFile(file)
  },
}

contextBridge.exposeInMainWorld('catalog', bridge)
