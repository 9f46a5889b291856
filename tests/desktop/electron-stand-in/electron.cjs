// The `electron` module of the desktop rig's main process: what out/main/index.js uses of Electron's main-process
// API, backed by the test process (tests/desktop/rig/rig.ts) over Node's IPC channel with 'advanced' serialisation
// (v8.serialize: the structured clone algorithm, as Electron's IPC uses). Windows are real Chromium pages owned by
// the test process; dialogs are answered by the test; safeStorage encrypts with a stand-in cipher. Test code only.
'use strict'
const { EventEmitter } = require('node:events')
const { createCipheriv, createDecipheriv, randomBytes, createHash } = require('node:crypto')
const { readFileSync } = require('node:fs')
const { join } = require('node:path')

if (typeof process.send !== 'function') throw new Error('the electron stand-in runs only as a child of the desktop rig (tests/desktop/rig)')

const env = process.env
const userData = env.LCB_RIG_USER_DATA
if (!userData) throw new Error('LCB_RIG_USER_DATA is not set')

// ---- the channel to the rig ------------------------------------------------------------------------------------

let nextRequest = 1
const pending = new Map()

/** Ask the rig (a dialog, a window load, …) and wait for its answer. */
function request(op, body) {
  const id = nextRequest++
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject })
    post({ t: 'request', id, op, ...body })
  })
}

/** A message to the rig; a value that cannot be cloned throws here, as it does in Electron. */
function post(message) {
  process.send(message)
}

// ---- app --------------------------------------------------------------------------------------------------------

class App extends EventEmitter {
  constructor() {
    super()
    this.isPackaged = true
    this.isReady_ = false
    this.quitting = false
    this.readyPromise = new Promise((resolve) => (this.markReady = resolve))
    this.lock = null
    this.protocolClients = new Map()
  }
  getPath(name) {
    const paths = { userData, appData: join(userData, '..'), temp: require('node:os').tmpdir(), home: require('node:os').homedir(), logs: join(userData, 'logs') }
    if (!(name in paths)) throw new Error(`the rig's app.getPath does not know '${name}'`)
    return paths[name]
  }
  getVersion() {
    return JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).version
  }
  getName() {
    return 'Lance Catalog Browser'
  }
  isReady() {
    return this.isReady_
  }
  whenReady() {
    return this.readyPromise
  }
  /**
   * Electron's lock is per userData directory and synchronous: in a second instance it hands that instance's argv,
   * working directory and additionalData to the first (its 'second-instance') before it returns false. Here the
   * first instance listens on a Unix socket named after userData; a second one connects, hands over and waits for
   * the first's answer, blocking as Electron does (single-instance.cjs).
   */
  requestSingleInstanceLock(additionalData) {
    if (this.lock) return true
    const { handOver, listen } = require('./single-instance.cjs')
    const path = lockPath()
    if (handOver(path, { argv: process.argv, workingDirectory: process.cwd(), additionalData: additionalData ?? null })) return false
    this.lock = listen(path, (message) => this.emit('second-instance', preventable(), message.argv, message.workingDirectory, message.additionalData ?? {}))
    return true
  }
  hasSingleInstanceLock() {
    return !!this.lock
  }
  releaseSingleInstanceLock() {
    this.lock?.close()
    this.lock = null
  }
  /** Registering is the OS's business; the rig records which schemes main claimed (and with which command). */
  setAsDefaultProtocolClient(protocol, path, args) {
    this.protocolClients.set(protocol, { path: path ?? process.execPath, args: args ?? [] })
    post({ t: 'protocol-client', protocol, path: path ?? null, args: args ?? [] })
    return true
  }
  isDefaultProtocolClient(protocol) {
    return this.protocolClients.has(protocol)
  }
  removeAsDefaultProtocolClient(protocol) {
    return this.protocolClients.delete(protocol)
  }
  /** Electron's order: before-quit (preventable), every window closes, will-quit, quit, then the process ends. */
  quit() {
    if (this.quitting) return
    const before = preventable()
    this.emit('before-quit', before)
    if (before.defaultPrevented) return
    this.quitting = true
    for (const win of [...windows]) win.destroyFromQuit()
    const will = preventable()
    this.emit('will-quit', will)
    this.emit('quit', preventable(), 0)
    this.releaseSingleInstanceLock()
    post({ t: 'quit' })
    // Like Electron, pending asynchronous work is not waited for.
    setImmediate(() => process.exit(0))
  }
  exit(code = 0) {
    this.releaseSingleInstanceLock()
    post({ t: 'quit' })
    process.exit(code)
  }
  focus() {}
}

function preventable() {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true
    },
  }
}

const app = new App()

/** The single-instance lock's socket: one per userData, as Electron's lock is (short: a socket path has a limit). */
function lockPath() {
  return join(require('node:os').tmpdir(), `lcb-rig-${createHash('sha256').update(userData).digest('hex').slice(0, 16)}.sock`)
}

// ---- windows ----------------------------------------------------------------------------------------------------

const windows = []
let nextWindowId = 1

class WebContents extends EventEmitter {
  constructor(win) {
    super()
    this.id = win.id
    this.window = win
    this.url = ''
    this.destroyed = false
    this.windowOpenHandler = null
    // The frame object main's sender check compares with event.senderFrame.
    this.mainFrame = { url: '', parent: null, top: null, routingId: 1, processId: 1 }
    this.mainFrame.top = this.mainFrame
  }
  send(channel, ...args) {
    if (this.destroyed) throw new Error('Object has been destroyed')
    post({ t: 'send', win: this.id, channel, args })
  }
  /** Electron's webContents.postMessage: MessagePortMain ends in `transfer` move into the page (DOM MessagePorts there). */
  postMessage(channel, message, transfer = []) {
    if (this.destroyed) throw new Error('Object has been destroyed')
    const win = this.id
    const ids = transfer.map((port) => {
      const id = moveAway(port, {
        deliver: (data) => post({ t: 'port-message', win, port: port.id, data }),
        close: () => post({ t: 'port-closed', win, port: port.id }),
      })
      windowPorts(win).add(id)
      return id
    })
    post({ t: 'send', win, channel, args: [message], ports: ids })
  }
  isDestroyed() {
    return this.destroyed
  }
  getURL() {
    return this.url
  }
  isLoadingMainFrame() {
    return false
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler
  }
  openDevTools() {}
}

class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return [...windows]
  }
  static getFocusedWindow() {
    return windows[0] ?? null
  }
  static fromWebContents(contents) {
    return windows.find((w) => w.webContents === contents) ?? null
  }
  constructor(options = {}) {
    super()
    this.id = nextWindowId++
    this.options = options
    this.destroyed = false
    this.maximized = false
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 800, height: options.height ?? 600 }
    this.webContents = new WebContents(this)
    windows.push(this)
    this.created = request('window-create', {
      win: this.id,
      options: { width: this.bounds.width, height: this.bounds.height, title: options.title ?? '', webPreferences: { ...(options.webPreferences ?? {}) } },
    })
  }
  async loadURL(url) {
    await this.created
    const loaded = await request('window-load', { win: this.id, url })
    if (!this.readyShown) {
      this.readyShown = true
      this.emit('ready-to-show')
    }
    return loaded
  }
  loadFile(path) {
    return this.loadURL(require('node:url').pathToFileURL(path).href)
  }
  show() {}
  hide() {}
  focus() {}
  restore() {}
  isMinimized() {
    return false
  }
  maximize() {
    this.maximized = true
  }
  isMaximized() {
    return this.maximized
  }
  isDestroyed() {
    return this.destroyed
  }
  getNormalBounds() {
    return { ...this.bounds }
  }
  getBounds() {
    return { ...this.bounds }
  }
  setTitle(title) {
    this.options.title = title
  }
  /** The user (or main) closes the window: 'close' may be prevented; then 'closed', then maybe window-all-closed. */
  close() {
    if (this.destroyed) return
    const event = preventable()
    this.emit('close', event)
    if (event.defaultPrevented) return
    this.destroy()
  }
  destroy() {
    if (this.destroyed) return
    this.finish()
    if (windows.length === 0 && !app.quitting) app.emit('window-all-closed')
  }
  destroyFromQuit() {
    if (this.destroyed) return
    this.emit('close', preventable())
    this.finish()
  }
  finish() {
    this.destroyed = true
    this.webContents.destroyed = true
    windows.splice(windows.indexOf(this), 1)
    closeWindowPorts(this.id)
    post({ t: 'window-closed', win: this.id })
    this.emit('closed')
    this.webContents.emit('destroyed')
  }
}

// ---- message ports in windows ----------------------------------------------------------------------------------

const { MessageChannelMain, MessagePortMain, moveAway, fromAway, closedAway } = require('./message-ports.cjs')
/** The port ends that moved into each window's page; they close with the window (and the rig closes those of a page that was replaced). */
const portsInWindows = new Map()
function windowPorts(win) {
  if (!portsInWindows.has(win)) portsInWindows.set(win, new Set())
  return portsInWindows.get(win)
}
function closeWindowPorts(win) {
  for (const id of portsInWindows.get(win) ?? []) closedAway(id)
  portsInWindows.delete(win)
}

// ---- IPC --------------------------------------------------------------------------------------------------------

class IpcMain extends EventEmitter {
  constructor() {
    super()
    this.handlers = new Map()
  }
  handle(channel, listener) {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    this.handlers.set(channel, listener)
  }
  handleOnce(channel, listener) {
    this.handle(channel, (...args) => {
      this.handlers.delete(channel)
      return listener(...args)
    })
  }
  removeHandler(channel) {
    this.handlers.delete(channel)
  }
}
const ipcMain = new IpcMain()

/** The event main's handlers get: sender, and the frame that sent (the main frame object, or a child frame). */
function senderEvent(message) {
  const win = windows.find((w) => w.id === message.win)
  if (!win) return null
  const contents = win.webContents
  let senderFrame
  if (message.frame.main) {
    contents.mainFrame.url = message.frame.url
    senderFrame = contents.mainFrame
  } else {
    senderFrame = { url: message.frame.url, parent: contents.mainFrame, top: contents.mainFrame, routingId: 2, processId: 1 }
  }
  return { sender: contents, senderFrame, frameId: message.frame.main ? 1 : 2, processId: 1, ports: [], returnValue: undefined }
}

async function onInvoke(message) {
  const reply = (body) => {
    try {
      post({ t: 'invoke-result', id: message.id, ...body })
    } catch (error) {
      // Electron: a handler's value that structured clone refuses rejects the renderer's invoke.
      post({ t: 'invoke-result', id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) })
    }
  }
  const handler = ipcMain.handlers.get(message.channel)
  const event = senderEvent(message)
  if (!handler || !event) return reply({ ok: false, message: `No handler registered for '${message.channel}'` })
  try {
    reply({ ok: true, value: await handler(event, ...message.args) })
  } catch (error) {
    reply({ ok: false, message: error instanceof Error ? `${error.name === 'Error' ? 'Error' : error.name}: ${error.message}` : String(error) })
  }
}

// ---- dialog, shell, safeStorage, session, Menu ------------------------------------------------------------------

/** `(window?, options)`: the window argument is optional, as in Electron. */
function dialogArgs(args) {
  return args.length > 1 || (args[0] && args[0] instanceof BrowserWindow) ? { win: args[0]?.id ?? null, options: args[1] ?? {} } : { win: null, options: args[0] ?? {} }
}
const plainOptions = (options) => JSON.parse(JSON.stringify(options ?? {}))
const dialog = {
  showOpenDialog: (...args) => {
    const { win, options } = dialogArgs(args)
    return request('dialog', { kind: 'open', win, options: plainOptions(options) })
  },
  showSaveDialog: (...args) => {
    const { win, options } = dialogArgs(args)
    return request('dialog', { kind: 'save', win, options: plainOptions(options) })
  },
  showMessageBox: (...args) => {
    const { win, options } = dialogArgs(args)
    return request('dialog', { kind: 'message', win, options: plainOptions(options) })
  },
  showErrorBox: (title, content) => post({ t: 'error-box', title, content }),
}

const shell = {
  openExternal: (url) => request('open-external', { url }).then(() => undefined),
  openPath: (path) => request('open-path', { path }).then(() => ''),
  showItemInFolder: (path) => post({ t: 'show-item', path }),
}

// A stand-in cipher: AES-256-GCM under a key that exists only in this rig run's environment. What matters to the
// app is that what it stores is not the plaintext and decrypts again after a restart (same key, same userData).
const storageKey = createHash('sha256').update(env.LCB_RIG_SAFE_STORAGE_KEY ?? 'lcb-rig').digest()
const safeStorage = {
  isEncryptionAvailable: () => env.LCB_RIG_SAFE_STORAGE !== '0',
  encryptString(plain) {
    if (!this.isEncryptionAvailable()) throw new Error('Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.')
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', storageKey, iv)
    const body = Buffer.concat([cipher.update(String(plain), 'utf8'), cipher.final()])
    return Buffer.concat([Buffer.from('v10'), iv, cipher.getAuthTag(), body])
  },
  decryptString(encrypted) {
    if (!this.isEncryptionAvailable()) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.')
    const data = Buffer.from(encrypted)
    if (data.subarray(0, 3).toString() !== 'v10') throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
    const decipher = createDecipheriv('aes-256-gcm', storageKey, data.subarray(3, 15))
    decipher.setAuthTag(data.subarray(15, 31))
    return Buffer.concat([decipher.update(data.subarray(31)), decipher.final()]).toString('utf8')
  },
  getSelectedStorageBackend: () => (env.LCB_RIG_SAFE_STORAGE !== '0' ? 'rig_stand_in' : 'basic_text'),
}

const session = {
  defaultSession: {
    permissionRequestHandler: null,
    setPermissionRequestHandler(handler) {
      this.permissionRequestHandler = handler
    },
    setPermissionCheckHandler() {},
  },
}

class MenuItem {
  constructor(options) {
    Object.assign(this, options)
    this.enabled = options.enabled ?? true
    this.visible = options.visible ?? true
    this.submenu = options.submenu ? (options.submenu instanceof Menu ? options.submenu : Menu.buildFromTemplate(options.submenu)) : undefined
  }
}
let applicationMenu = null
class Menu {
  constructor() {
    this.items = []
  }
  static buildFromTemplate(template) {
    const menu = new Menu()
    menu.items = template.map((item) => new MenuItem(item))
    return menu
  }
  static setApplicationMenu(menu) {
    applicationMenu = menu
    post({ t: 'menu', items: menu ? describeMenu(menu.items, []) : [] })
  }
  static getApplicationMenu() {
    return applicationMenu
  }
}
function describeMenu(items, path) {
  return items.flatMap((item) => [
    ...(item.label ? [{ path: [...path, item.label], accelerator: item.accelerator ?? null, enabled: item.enabled, role: item.role ?? null }] : []),
    ...(item.submenu ? describeMenu(item.submenu.items, item.label ? [...path, item.label] : path) : []),
  ])
}
function findMenuItem(items, path) {
  for (const item of items) {
    if (item.label === path[0] && path.length === 1) return item
    if (item.submenu) {
      const found = findMenuItem(item.submenu.items, item.label === path[0] ? path.slice(1) : path)
      if (found) return found
    }
  }
  return null
}

// ---- messages from the rig --------------------------------------------------------------------------------------

process.on('message', (message) => {
  switch (message.t) {
    case 'reply': {
      const waiting = pending.get(message.id)
      pending.delete(message.id)
      if (!waiting) return
      if (message.ok) waiting.resolve(message.value)
      else waiting.reject(new Error(message.message))
      return
    }
    case 'invoke':
      void onInvoke(message)
      return
    case 'ipc-send': {
      const event = senderEvent(message)
      if (event) ipcMain.emit(message.channel, event, ...message.args)
      return
    }
    case 'port-post':
      fromAway(message.port, message.data)
      return
    case 'port-close':
      portsInWindows.get(message.win)?.delete(message.port)
      closedAway(message.port)
      return
    case 'navigated': {
      const win = windows.find((w) => w.id === message.win)
      if (win) win.webContents.url = win.webContents.mainFrame.url = message.url
      return
    }
    case 'preload-error': {
      const win = windows.find((w) => w.id === message.win)
      const error = Object.assign(new Error(message.message), { stack: message.stack })
      win?.webContents.emit('preload-error', preventable(), message.path, error)
      return
    }
    case 'will-navigate': {
      const win = windows.find((w) => w.id === message.win)
      const event = { ...preventable(), url: message.url, isMainFrame: true, frame: win?.webContents.mainFrame }
      win?.webContents.emit('will-navigate', event, message.url)
      post({ t: 'answer', id: message.id, value: { prevented: !win || event.defaultPrevented } })
      return
    }
    case 'window-open': {
      const win = windows.find((w) => w.id === message.win)
      const handler = win?.webContents.windowOpenHandler
      const decision = handler ? handler({ url: message.url, frameName: message.frameName ?? '', features: message.features ?? '', disposition: 'new-window', referrer: { url: '', policy: 'default' } }) : { action: 'allow' }
      post({ t: 'answer', id: message.id, value: { action: decision?.action === 'allow' ? 'allow' : 'deny' } })
      return
    }
    case 'menu-click': {
      const item = applicationMenu ? findMenuItem(applicationMenu.items, message.path) : null
      const ok = !!item && typeof item.click === 'function' && item.enabled
      if (ok) item.click(item, windows[0] ?? null, { triggeredByAccelerator: !!message.accelerator })
      post({ t: 'answer', id: message.id, value: { clicked: ok } })
      return
    }
    case 'close-window': {
      windows.find((w) => w.id === message.win)?.close()
      return
    }
    case 'quit':
      app.quit()
      return
    case 'open-url': {
      // macOS: the OS hands a link to the running app.
      app.emit('open-url', preventable(), message.url)
      return
    }
    case 'loop-delay': {
      // The benchmark's probe of main's event loop (tests/bench/host.ts): how long timers waited, in ms.
      // A sample is the time between two timer turns, the resolution included: the delay is what exceeds it.
      const h = loopDelay()
      const late = (ns) => Math.max(0, ns / 1e6 - DELAY_RESOLUTION_MS)
      const value = h && { p50: late(h.percentile(50)), p99: late(h.percentile(99)), max: late(h.max), count: h.count }
      if (message.reset) h?.reset()
      post({ t: 'answer', id: message.id, value })
      return
    }
    case 'permission': {
      const handler = session.defaultSession.permissionRequestHandler
      const answer = (granted) => post({ t: 'answer', id: message.id, value: { granted } })
      if (handler) handler(windows[0]?.webContents ?? null, message.permission, answer, {})
      else answer(true)
      return
    }
  }
})

// With LCB_RIG_LOOP_DELAY=1 (benchmarks only), main's event-loop delay is sampled from the start: the stand-in runs
// in main's process, so it sees exactly what main's own code and the IPC it serves leave of the loop.
let delayHistogram = null
const DELAY_RESOLUTION_MS = 10
function loopDelay() {
  return delayHistogram
}
if (env.LCB_RIG_LOOP_DELAY === '1') {
  delayHistogram = require('node:perf_hooks').monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS })
  delayHistogram.enable()
}

// Electron's 'ready' comes after the main script has run.
setImmediate(() => {
  app.isReady_ = true
  app.emit('ready', preventable(), {})
  app.markReady()
})

const webUtils = {
  getPathForFile() {
    throw new Error('webUtils is a renderer module')
  },
}

// Electron's utility processes: Node children with process.parentPort (utility-process.cjs). Forked only once the
// app is ready, as Electron requires.
const utilityProcess = {
  fork(modulePath, args, options) {
    if (!app.isReady()) throw new Error('utilityProcess cannot be created before app is ready.')
    const child = require('./utility-process.cjs').fork(modulePath, args, options)
    child.once('spawn', () => post({ t: 'utility-spawned', pid: child.pid, serviceName: options?.serviceName ?? null }))
    return child
  },
}

module.exports = {
  app,
  utilityProcess,
  MessageChannelMain,
  MessagePortMain,
  BrowserWindow,
  ipcMain,
  dialog,
  shell,
  safeStorage,
  session,
  Menu,
  MenuItem,
  webUtils,
  nativeTheme: Object.assign(new EventEmitter(), { shouldUseDarkColors: false, themeSource: 'system' }),
  screen: { getPrimaryDisplay: () => ({ workAreaSize: { width: 1280, height: 800 } }) },
}
