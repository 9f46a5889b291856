// The page half of the desktop rig: runs in the window's page before any of its scripts (a Playwright init script)
// and runs the app's BUILT preload there as a sandboxed Electron renderer runs it:
//  - in the main frame only (Electron runs preloads in subframes only with nodeIntegrationInSubFrames);
//  - with the sandbox's `require`: electron (contextBridge, ipcRenderer, webUtils), events, timers, url — also as
//    node:… — and "module not found" for anything else; a preload that throws is reported to main as
//    'preload-error' and the page loads without the bridge;
//  - contextBridge.exposeInMainWorld: the page gets copies — functions proxied, other values copied and frozen,
//    errors reduced to their message, DOM objects (File, Blob, Node) passed as the same object, ipcRenderer itself
//    as an empty object — never the preload's own objects;
//  - ipcRenderer: arguments structured-cloned (a function throws "An object could not be cloned"), then sent to the
//    test process through a Playwright binding, and on to main over a real process boundary.
// What it does not give: a separate V8 world. The preload's code runs in a closure of the page's own world, so it
// sees the page's globals (Electron's isolated world does not); the page still cannot reach the preload's objects.
// Test code only; the test process injects this function's source text (see rig.ts).
'use strict'

function lcbRigPreloadHost(config, makeCodec, preload) {
  if (window.top !== window) return
  const binding = window[config.binding]
  try {
    delete window[config.binding]
  } catch {
    // a binding Playwright made non-configurable stays; main's sender check still applies to anything it sends
  }
  if (typeof binding !== 'function') return

  const codec = makeCodec({
    encode(bytes) {
      let text = ''
      for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000))
      return btoa(text)
    },
    decode(base64) {
      const text = atob(base64)
      const bytes = new Uint8Array(text.length)
      for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
      return bytes
    },
  })
  const post = (message) => binding(JSON.stringify(message)).then((reply) => (reply === undefined || reply === null ? null : JSON.parse(reply)))

  // ---- events (the sandbox's `events` module) ----
  class EventEmitter {
    constructor() {
      this._events = new Map()
    }
    on(name, listener) {
      const list = this._events.get(name) ?? []
      this._events.set(name, [...list, listener])
      return this
    }
    addListener(name, listener) {
      return this.on(name, listener)
    }
    once(name, listener) {
      const wrapped = (...args) => {
        this.removeListener(name, wrapped)
        listener.apply(this, args)
      }
      wrapped.listener = listener
      return this.on(name, wrapped)
    }
    removeListener(name, listener) {
      const list = this._events.get(name) ?? []
      const index = list.findIndex((l) => l === listener || l.listener === listener)
      if (index >= 0) this._events.set(name, [...list.slice(0, index), ...list.slice(index + 1)])
      return this
    }
    off(name, listener) {
      return this.removeListener(name, listener)
    }
    removeAllListeners(name) {
      if (name === undefined) this._events.clear()
      else this._events.delete(name)
      return this
    }
    emit(name, ...args) {
      const list = this._events.get(name) ?? []
      for (const listener of list) listener.apply(this, args)
      return list.length > 0
    }
    listenerCount(name) {
      return (this._events.get(name) ?? []).length
    }
    listeners(name) {
      return [...(this._events.get(name) ?? [])]
    }
  }
  EventEmitter.EventEmitter = EventEmitter

  // ---- ipcRenderer ----
  const cloneArgs = (args) => {
    try {
      return codec.encode(structuredClone(args))
    } catch {
      throw new Error('An object could not be cloned.')
    }
  }
  class IpcRenderer extends EventEmitter {
    invoke(channel, ...args) {
      let payload
      try {
        payload = cloneArgs(args)
      } catch (error) {
        return Promise.reject(error)
      }
      return post({ t: 'invoke', channel: String(channel), args: payload }).then((reply) => {
        if (reply.ok) return codec.decode(reply.value)
        throw new Error(`Error invoking remote method '${channel}': ${reply.message}`)
      })
    }
    send(channel, ...args) {
      void post({ t: 'send', channel: String(channel), args: cloneArgs(args) })
    }
    sendSync() {
      throw new Error('the desktop rig does not emulate ipcRenderer.sendSync')
    }
  }
  const ipcRenderer = new IpcRenderer()

  // ---- MessagePorts main moved into this page (webContents.postMessage with a transfer list) ----
  // A DOM MessagePort as the preload sees one: postMessage structured-clones and sends to the peer (through the test
  // process and main, wherever the peer lives); messages wait until start() or an onmessage handler; the peer's close
  // closes it. A new document tells the test process first, so the ports of the one it replaced close (Electron's).
  void post({ t: 'document' })
  const ports = new Map()
  function makePort(id) {
    const listeners = new Set()
    let handler = null
    let started = false
    let closed = false
    const queue = []
    const dispatch = (data) => {
      const event = new MessageEvent('message', { data })
      if (handler) handler.call(port, event)
      for (const listener of listeners) listener.call(port, event)
    }
    const port = {
      postMessage(message) {
        const data = structuredClone(message)
        if (!closed) void post({ t: 'port-post', port: id, data: codec.encode(data) })
      },
      start() {
        if (started) return
        started = true
        for (const data of queue.splice(0)) dispatch(data)
      },
      close() {
        if (closed) return
        closed = true
        ports.delete(id)
        void post({ t: 'port-close', port: id })
      },
      addEventListener(type, listener) {
        if (type === 'message') listeners.add(listener)
      },
      removeEventListener(type, listener) {
        if (type === 'message') listeners.delete(listener)
      },
      get onmessage() {
        return handler
      },
      set onmessage(value) {
        handler = value
        port.start()
      },
      receive(data) {
        if (closed) return
        if (started) dispatch(data)
        else queue.push(data)
      },
      peerClosed() {
        closed = true
        ports.delete(id)
      },
    }
    ports.set(id, port)
    return port
  }

  // ---- webUtils: a dropped file's path, as the OS gave it (the rig's drop helper registers it) ----
  const droppedPaths = new WeakMap()
  const webUtils = {
    getPathForFile(file) {
      if (!(file instanceof File)) throw new TypeError('getPathForFile expects a File')
      return droppedPaths.get(file) ?? ''
    },
  }

  // ---- contextBridge ----
  const isDomObject = (value) => value instanceof Blob || value instanceof Node || value instanceof Event || value instanceof Window
  const errorCopy = (error) => new Error(error instanceof Error ? error.message : String(error))
  function copy(value, freeze) {
    if (value === ipcRenderer) return Object.freeze({})
    if (typeof value === 'function') {
      const inner = value
      return function bridged(...args) {
        let result
        try {
          result = inner(...args.map((arg) => copy(arg, false)))
        } catch (error) {
          throw errorCopy(error)
        }
        return copy(result, freeze)
      }
    }
    if (typeof value === 'symbol') throw new Error('Symbols cannot be sent over the context bridge')
    if (value === null || typeof value !== 'object') return value
    if (value instanceof Promise) return new Promise((resolve, reject) => value.then((v) => resolve(copy(v, freeze)), (e) => reject(errorCopy(e))))
    if (value instanceof Error) return errorCopy(value)
    if (isDomObject(value)) return value
    if (Array.isArray(value)) {
      const out = value.map((item) => copy(item, freeze))
      return freeze ? Object.freeze(out) : out
    }
    const proto = Object.getPrototypeOf(value)
    if (proto === Object.prototype || proto === null) {
      const out = {}
      for (const key of Object.keys(value)) out[key] = copy(value[key], freeze)
      return freeze ? Object.freeze(out) : out
    }
    // ArrayBuffer, typed arrays, Date, Map, Set, …: copied; a class instance loses its prototype.
    return structuredClone(value)
  }
  const contextBridge = {
    exposeInMainWorld(key, api) {
      if (Object.prototype.hasOwnProperty.call(window, key)) throw new Error('Cannot bind an API on top of an existing property on the window object')
      Object.defineProperty(window, key, { value: copy(api, true), enumerable: true, writable: false, configurable: false })
    },
  }

  // ---- window.open goes through main's setWindowOpenHandler; the page gets null, as when Electron denies ----
  window.open = function open(url) {
    const href = new URL(url === undefined ? 'about:blank' : String(url), window.location.href).href
    void post({ t: 'window-open', url: href, frameName: arguments[1] === undefined ? '' : String(arguments[1]), features: arguments[2] === undefined ? '' : String(arguments[2]) })
    return null
  }

  // What the test process calls into the page: main's webContents.send, and the drop helper's file paths.
  Object.defineProperty(window, Symbol.for('lcb-rig'), {
    value: Object.freeze({
      deliver(channel, encodedArgs, portIds) {
        const args = codec.decode(encodedArgs)
        const event = { sender: ipcRenderer, senderId: 0, ports: (portIds ?? []).map(makePort) }
        for (const listener of ipcRenderer.listeners(channel)) {
          try {
            listener(event, ...args)
          } catch (error) {
            console.error(error)
          }
        }
      },
      deliverPort(id, encoded) {
        const port = ports.get(id)
        if (!port) return
        if (encoded === null) port.peerClosed()
        else port.receive(codec.decode(encoded))
      },
      registerDropped(file, path) {
        droppedPaths.set(file, path)
      },
    }),
  })

  const modules = {
    electron: Object.freeze({ contextBridge, ipcRenderer, webUtils, webFrame: Object.freeze({}), crashReporter: Object.freeze({}), nativeImage: Object.freeze({}) }),
    events: EventEmitter,
    timers: Object.freeze({ setTimeout, clearTimeout, setInterval, clearInterval }),
    url: Object.freeze({ URL, URLSearchParams }),
  }
  const sandboxRequire = (name) => {
    const bare = String(name).replace(/^node:/, '')
    if (name === 'electron' || (bare !== 'electron' && Object.prototype.hasOwnProperty.call(modules, bare))) return modules[bare]
    throw new Error(`module not found: ${name}`)
  }
  const processStandIn = Object.freeze({ type: 'renderer', platform: config.platform, sandboxed: true, contextIsolated: true, env: Object.freeze({}), argv: Object.freeze([]), versions: Object.freeze({ electron: 'rig', chrome: navigator.userAgent }) })
  const module = { exports: {} }
  try {
    preload(module.exports, sandboxRequire, module, config.preloadPath, config.preloadDir, processStandIn, window)
  } catch (error) {
    console.error(`Unable to load preload script: ${config.preloadPath}`)
    console.error(error)
    void post({ t: 'preload-error', message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? String(error.stack) : '' })
  }
}

module.exports = { lcbRigPreloadHost }
