// A sandboxed preload gets a `require` that loads only `electron`, `events`, `timers` and `url`: import
// `electron` and dependency-free local modules (bundled in) only, everything else `import type` (see the lint
// rule for src/preload and tests/main/preload-sandbox.test.ts, which loads the built file under those rules).
import { contextBridge, ipcRenderer, webUtils } from 'electron'
import type { EventName, Events } from '../contract'
import { isMethodName } from '../contract/methods'
import type { CatalogBridge } from './api'

/** The one invoke channel and the one event channel (see src/main/ipc.ts). */
const INVOKE_CHANNEL = 'catalog:invoke'
const EVENT_CHANNEL = 'catalog:event'

const bridge: CatalogBridge = {
  invoke(method, input) {
    // Refuse unknown methods here too, so a typo never reaches main.
    if (!isMethodName(method)) {
      return Promise.resolve({ ok: false, error: { code: 'invalid_input', message: `Unknown method ${String(method)}` } })
    }
    return ipcRenderer.invoke(INVOKE_CHANNEL, method, input)
  },
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
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
