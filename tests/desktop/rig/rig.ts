import { fork, type ChildProcess } from 'node:child_process'
import { readFile, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { basename, dirname, join } from 'node:path'
import { chromium, type BrowserContext, type Frame, type Locator, type Page } from '@playwright/test'
import { INVOKE_CHANNEL } from '../../../src/contract/channels'
import { chromiumPath } from '../../../playwright.config'
import { normalizeAccelerator, type DesktopApp, type LaunchOptions } from '../app'

/**
 * The desktop rig: the BUILT main bundle (out/main/index.js) runs in a Node child process with the `electron`
 * stand-in (../electron-stand-in); this test process owns its windows — each a real Chromium page, in a persistent
 * profile under userData as Electron keeps one — and runs the built preload in them as Electron does
 * (page-preload.cjs). Renderer ↔ main messages cross the process boundary with Node's 'advanced' serialisation
 * (structured clone). Files load from file:// as in the app; plain Chromium needs --allow-file-access-from-files
 * for the module script and stylesheet of a file:// page (Electron treats file: as privileged).
 */
const ROOT = join(__dirname, '..', '..', '..')
const MAIN = join(ROOT, 'out', 'main', 'index.js')
const REGISTER = join(__dirname, '..', 'electron-stand-in', 'register.cjs')
const BINDING = '__lcbRigIpc'

type Codec = { encode(value: unknown): unknown; decode(value: unknown): unknown }
const load = createRequire(__filename)
const { lcbRigCodec } = load('./codec.cjs') as { lcbRigCodec: (base64: { encode(b: Uint8Array): string; decode(s: string): Uint8Array }) => Codec }
const { lcbRigPreloadHost } = load('./page-preload.cjs') as { lcbRigPreloadHost: (...args: unknown[]) => void }

const codec = lcbRigCodec({
  encode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
  decode: (text) => new Uint8Array(Buffer.from(text, 'base64')),
})

type Message = { t: string; id?: number; [key: string]: unknown }
type DialogKind = 'open' | 'save' | 'message'

interface RigWindow {
  id: number
  context: BrowserContext
  page: Page
  /** main's loadURL in progress: its navigation is not a will-navigate. */
  mainLoad: string | null
  closed: Promise<void>
  preloadPath: string
  /** Events main sent to this window, delivered one after another (Electron keeps their order; `evaluate`s may not). */
  delivery: Promise<unknown>
  /** Port ends that moved into the page's current document (they die with it). */
  ports: Set<string>
}

/**
 * The rig's app; `mainPid` lets a test end main from outside, as a crash would; `mainLoopDelay` reads main's event-loop
 * delay (launched with `loopDelay: true`; benchmarks only) and starts a new sample when `reset`.
 */
export type RigApp = DesktopApp & {
  readonly mainPid: number
  /** The link schemes main registered with app.setAsDefaultProtocolClient. */
  protocolClients(): string[]
  /** macOS hands the running app a link: app's 'open-url'. */
  openUrl(url: string): void
  mainLoopDelay(reset?: boolean): Promise<{ p50: number; p99: number; max: number; count: number } | null>
}

/** `args`: the command line after the app (as the OS passes a `lance-catalog://` link to it). */
export async function launchRig(options: LaunchOptions & { loopDelay?: boolean; args?: string[] }): Promise<RigApp> {
  const rig = new Rig(options)
  await rig.started
  return rig
}

class Rig implements DesktopApp {
  readonly kind = 'rig' as const
  readonly userData: string
  readonly started: Promise<void>
  private readonly child: ChildProcess
  private readonly log: string[] = []
  private readonly dialogAnswers: Record<'open' | 'save', Array<string[] | string | null>> = { open: [], save: [] }
  private readonly dialogs: { kind: DialogKind; options: Record<string, unknown> }[] = []
  private readonly external: string[] = []
  private readonly calls: { method: string; input: unknown; via: 'invoke' | 'port' }[] = []
  private menu: { path: string[]; accelerator: string | null }[] = []
  private readonly windows = new Map<number, RigWindow>()
  /** Browsers of windows main closed, still shutting down: dispose waits for them (they write their profile until gone). */
  private readonly closing = new Set<Promise<unknown>>()
  private windowWaiters: Array<(w: RigWindow) => void> = []
  private readonly waiting = new Map<number, (message: Message) => void>()
  private nextId = 1
  private readonly exit: Promise<void>
  private ended = false
  /** Utility processes main started (the catalog host), newest last; waiters for the next one. */
  private readonly utilities: { pid: number; serviceName: string | null }[] = []
  private utilityWaiters: Array<() => void> = []

  private readonly protocols: string[] = []

  constructor(private readonly options: LaunchOptions & { loopDelay?: boolean; args?: string[] }) {
    this.userData = options.userData
    this.child = fork(MAIN, options.args ?? [], {
      cwd: ROOT,
      execArgv: ['--require', REGISTER],
      serialization: 'advanced',
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env: {
        ...process.env,
        ELECTRON_RUN_AS_NODE: '',
        LCB_RIG_USER_DATA: options.userData,
        LCB_RIG_SAFE_STORAGE: options.encryption === false ? '0' : '1',
        LCB_RIG_SAFE_STORAGE_KEY: `rig:${options.userData}`,
        LCB_RIG_LOOP_DELAY: options.loopDelay ? '1' : '',
      },
    })
    for (const stream of [this.child.stdout, this.child.stderr]) stream?.on('data', (chunk: Buffer) => this.log.push(chunk.toString('utf8')))
    this.exit = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.ended = true
        this.log.push(`[rig] main exited (${signal ?? code})\n`)
        for (const resolveWaiting of this.waiting.values()) resolveWaiting({ t: 'answer', value: null })
        this.waiting.clear()
        // Messages main sent just before it ended may be lost with it: close what is left of its windows here.
        void Promise.all([...this.windows.values()].map((w) => w.context.close().catch(() => undefined))).then(() => {
          this.windows.clear()
          resolve()
        })
      })
    })
    this.child.on('message', (message: Message) => void this.onMain(message))
    this.started = Promise.resolve()
  }

  get mainPid(): number {
    return this.child.pid!
  }

  async mainLoopDelay(reset = false): Promise<{ p50: number; p99: number; max: number; count: number } | null> {
    return (await this.ask({ t: 'loop-delay', reset })).value as { p50: number; p99: number; max: number; count: number } | null
  }

  output(): string {
    return this.log.join('')
  }

  // ---- from main ----

  private send(message: Message): void {
    if (this.ended || !this.child.connected) return
    // main may have ended a moment before Node reports it (its 'exit' not yet delivered): the write then fails with
    // EPIPE, which Node emits as an 'error' event on the child when send has no callback — nothing listens, so it
    // was thrown into the test running then. Electron drops a message to a main process that has gone; the rig
    // does too, and says so in the output. (An `ask` still waiting is answered null on 'exit'.)
    this.child.send(message, (error) => {
      if (error) this.log.push(`[rig] a message to main was lost (${error.message}): ${message.t}\n`)
    })
  }

  /** Send to main and wait for its answer (will-navigate, window-open, menu clicks, invokes). */
  private ask(message: Message): Promise<Message> {
    const id = this.nextId++
    return new Promise((resolve) => {
      this.waiting.set(id, resolve)
      if (this.ended) return resolve({ t: 'answer', value: null })
      this.send({ ...message, id })
    })
  }

  private async onMain(message: Message): Promise<void> {
    switch (message.t) {
      case 'request': {
        const reply = (body: { ok: true; value?: unknown } | { ok: false; message: string }) => this.send({ t: 'reply', id: message.id, ...body })
        try {
          reply({ ok: true, value: await this.request(message) })
        } catch (error) {
          reply({ ok: false, message: error instanceof Error ? error.message : String(error) })
        }
        return
      }
      case 'invoke-result':
      case 'answer': {
        const resolve = this.waiting.get(message.id as number)
        this.waiting.delete(message.id as number)
        resolve?.(message)
        return
      }
      case 'send': {
        const win = this.windows.get(message.win as number)
        if (!win) return
        const args = codec.encode(message.args)
        const ports = (message.ports as string[] | undefined) ?? []
        for (const id of ports) win.ports.add(id)
        const deliver = () =>
          win.page
            .evaluate(
              ([channel, encoded, moved]) => (window as unknown as Record<symbol, { deliver(c: unknown, a: unknown, p: string[]): void }>)[Symbol.for('lcb-rig')]?.deliver(channel, encoded, moved),
              [message.channel, args, ports] as const,
            )
            .catch(() => undefined)
        win.delivery = win.delivery.then(deliver)
        await win.delivery
        return
      }
      case 'port-message':
      case 'port-closed': {
        // A message for (or the peer's close of) a port end that lives in the page.
        const win = this.windows.get(message.win as number)
        if (!win) return
        const data = message.t === 'port-message' ? codec.encode(message.data) : null
        const deliver = () =>
          win.page
            .evaluate(
              ([port, encoded]) => (window as unknown as Record<symbol, { deliverPort(p: string, d: unknown): void }>)[Symbol.for('lcb-rig')]?.deliverPort(port, encoded),
              [message.port as string, data] as const,
            )
            .catch(() => undefined)
        win.delivery = win.delivery.then(deliver)
        await win.delivery
        return
      }
      case 'menu':
        this.menu = message.items as typeof this.menu
        return
      case 'protocol-client':
        this.protocols.push(message.protocol as string)
        return
      case 'utility-spawned':
        this.utilities.push({ pid: message.pid as number, serviceName: (message.serviceName as string | null) ?? null })
        for (const wake of this.utilityWaiters.splice(0)) wake()
        return
      case 'window-closed': {
        const win = this.windows.get(message.win as number)
        this.windows.delete(message.win as number)
        if (!win) return
        const closed = win.context.close().catch(() => undefined)
        this.closing.add(closed)
        await closed
        this.closing.delete(closed)
        return
      }
    }
  }

  private async request(message: Message): Promise<unknown> {
    switch (message.op) {
      case 'window-create':
        return this.createWindow(message.win as number, message.options as { width: number; height: number; webPreferences: { preload?: string } })
      case 'window-load': {
        const win = this.windows.get(message.win as number)
        if (!win) throw new Error('the window was closed')
        win.mainLoad = message.url as string
        try {
          await win.page.goto(message.url as string)
        } finally {
          win.mainLoad = null
        }
        return undefined
      }
      case 'dialog': {
        const kind = message.kind as DialogKind
        this.dialogs.push({ kind, options: message.options as Record<string, unknown> })
        if (kind === 'message') return { response: 0, checkboxChecked: false }
        const answer = this.dialogAnswers[kind].shift() ?? null
        if (kind === 'open') return answer === null ? { canceled: true, filePaths: [] } : { canceled: false, filePaths: answer }
        return answer === null ? { canceled: true, filePath: '' } : { canceled: false, filePath: answer }
      }
      case 'open-external':
      case 'open-path':
        this.external.push(String(message.url ?? message.path))
        return undefined
      default:
        throw new Error(`the rig does not know '${String(message.op)}'`)
    }
  }

  private async createWindow(id: number, options: { width: number; height: number; webPreferences: { preload?: string } }): Promise<void> {
    const preloadPath = this.options.replacePreload ?? options.webPreferences.preload
    const context = await chromium.launchPersistentContext(join(this.userData, 'rig-chromium-profile'), {
      executablePath: chromiumPath,
      headless: true,
      viewport: { width: Math.min(options.width, 1280), height: Math.min(options.height, 800) },
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--allow-file-access-from-files'],
    })
    const page = context.pages()[0] ?? (await context.newPage())
    const win: RigWindow = {
      id,
      context,
      page,
      mainLoad: null,
      delivery: Promise.resolve(),
      ports: new Set(),
      preloadPath: preloadPath ?? '',
      closed: new Promise((resolve) => context.once('close', () => resolve())),
    }
    this.windows.set(id, win)

    await context.exposeBinding(BINDING, (source, json: string) => this.fromPage(win, source.frame, json))
    if (preloadPath) {
      const source = await readFile(preloadPath, 'utf8')
      const config = { binding: BINDING, preloadPath, preloadDir: dirname(preloadPath), platform: process.platform }
      await context.addInitScript({
        content: `;(${lcbRigPreloadHost.toString()})(${JSON.stringify(config)}, ${lcbRigCodec.toString()}, function (exports, require, module, __filename, __dirname, process, global) {\n${source}\n})`,
      })
    }
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.send({ t: 'navigated', win: id, url: frame.url() })
    })
    // will-navigate: a navigation the page starts (a link, location.href) asks main first; main's loadURL does not.
    // Playwright sees http(s) requests only, so a page-started navigation to another file:// URL is not asked.
    await context.route('**/*', async (route) => {
      const request = route.request()
      if (request.isNavigationRequest() && request.frame() === page.mainFrame() && win.mainLoad !== request.url()) {
        const answer = await this.ask({ t: 'will-navigate', win: id, url: request.url() })
        // 'aborted' (net::ERR_ABORTED) cancels without committing an error page: the page stays, as when
        // Electron's will-navigate is prevented.
        if ((answer.value as { prevented: boolean } | null)?.prevented !== false) return route.abort('aborted')
      }
      return route.continue()
    })
    // A popup made without window.open (a target=_blank link) also goes through the window-open handler.
    context.on('page', (popup) => {
      void (async () => {
        const answer = await this.ask({ t: 'window-open', win: id, url: popup.url(), frameName: '', features: '' })
        if ((answer.value as { action: string } | null)?.action !== 'allow') await popup.close().catch(() => undefined)
      })()
    })
    page.on('close', () => {
      if (this.windows.has(id)) this.send({ t: 'close-window', win: id })
    })
    for (const waiter of this.windowWaiters) waiter(win)
    this.windowWaiters = []
  }

  /** A message from the page's preload half (page-preload.cjs). Answers a JSON string. */
  private async fromPage(win: RigWindow, frame: Frame, json: string): Promise<string | null> {
    const message = JSON.parse(json) as Message
    const sender = { url: frame.url(), main: frame === win.page.mainFrame() }
    switch (message.t) {
      case 'invoke': {
        const args = codec.decode(message.args) as unknown[]
        if (message.channel === INVOKE_CHANNEL) this.calls.push({ method: String(args[0]), input: args[1], via: 'invoke' })
        const answer = await this.ask({ t: 'invoke', win: win.id, frame: sender, channel: message.channel, args })
        if (answer.t !== 'invoke-result') return JSON.stringify({ ok: false, message: 'the app has quit' })
        return JSON.stringify(answer.ok ? { ok: true, value: codec.encode(answer.value) } : { ok: false, message: answer.message })
      }
      case 'send':
        this.send({ t: 'ipc-send', win: win.id, frame: sender, channel: message.channel, args: codec.decode(message.args) })
        return null
      case 'document':
        // A new document in the window: the ports the last one held went with it, as in Electron.
        for (const port of win.ports) this.send({ t: 'port-close', win: win.id, port })
        win.ports.clear()
        return null
      case 'port-post': {
        const data = codec.decode(message.data) as { method?: unknown; input?: unknown } | null
        // The app's calls over its port to the catalog host are calls the window made, as those over invoke.
        if (data && typeof data.method === 'string') this.calls.push({ method: data.method, input: data.input, via: 'port' })
        this.send({ t: 'port-post', win: win.id, port: message.port, data })
        return null
      }
      case 'port-close':
        win.ports.delete(message.port as string)
        this.send({ t: 'port-close', win: win.id, port: message.port })
        return null
      case 'preload-error':
        this.send({ t: 'preload-error', win: win.id, path: win.preloadPath, message: message.message, stack: message.stack })
        return null
      case 'window-open': {
        const answer = await this.ask({ t: 'window-open', win: win.id, url: message.url, frameName: message.frameName, features: message.features })
        if ((answer.value as { action: string } | null)?.action === 'allow') {
          const opened = await win.context.newPage()
          await opened.goto(String(message.url)).catch(() => undefined)
        }
        return null
      }
      default:
        return null
    }
  }

  // ---- for the tests ----

  async window(): Promise<Page> {
    const first = [...this.windows.values()][0]
    const win = first ?? (await new Promise<RigWindow>((resolve) => this.windowWaiters.push(resolve)))
    return win.page
  }

  async answerNextDialog(kind: 'open' | 'save', answer: string[] | string | null): Promise<void> {
    this.dialogAnswers[kind].push(answer)
  }

  async dialogsShown() {
    return [...this.dialogs]
  }

  async clickMenu(...path: string[]): Promise<void> {
    const answer = await this.ask({ t: 'menu-click', path })
    if (!(answer.value as { clicked: boolean } | null)?.clicked) throw new Error(`no enabled menu item ${path.join(' › ')}`)
  }

  async pressAccelerator(accelerator: string): Promise<void> {
    const wanted = normalizeAccelerator(accelerator)
    const item = this.menu.find((entry) => entry.accelerator && normalizeAccelerator(entry.accelerator) === wanted)
    if (!item) throw new Error(`no menu item has the accelerator ${accelerator}`)
    const answer = await this.ask({ t: 'menu-click', path: item.path, accelerator: true })
    if (!(answer.value as { clicked: boolean } | null)?.clicked) throw new Error(`the menu item ${item.path.join(' › ')} is disabled`)
  }

  async invokes() {
    return [...this.calls]
  }

  async openedExternally(): Promise<string[]> {
    return [...this.external]
  }

  async dropPaths(target: Locator, paths: string[]): Promise<void> {
    const page = await this.window()
    const entries = await Promise.all(
      paths.map(async (path) => {
        const info = await stat(path)
        return { name: basename(path), path, folder: info.isDirectory(), data: info.isDirectory() ? '' : (await readFile(path)).toString('base64'), lastModified: info.mtimeMs }
      }),
    )
    const dataTransfer = await page.evaluateHandle((list) => {
      const rig = (window as unknown as Record<symbol, { registerDropped(file: File, path: string): void }>)[Symbol.for('lcb-rig')]
      const transfer = new DataTransfer()
      for (const entry of list) {
        const text = atob(entry.data)
        const bytes = new Uint8Array(text.length)
        for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i)
        // A dropped folder reaches the page as an empty File named after it, as Chromium gives it.
        const file = new File(entry.folder ? [] : [bytes], entry.name, { type: entry.folder ? '' : 'application/octet-stream', lastModified: entry.lastModified })
        transfer.items.add(file)
        rig?.registerDropped(transfer.files[transfer.files.length - 1] ?? file, entry.path)
      }
      return transfer
    }, entries)
    await target.dispatchEvent('dragenter', { dataTransfer })
    await target.dispatchEvent('dragover', { dataTransfer })
    await target.dispatchEvent('drop', { dataTransfer })
  }

  /** The newest catalog host main started that is still alive (after a restart, the new one). */
  async hostPid(): Promise<number> {
    for (;;) {
      const host = this.utilities.filter((u) => u.serviceName === 'Lance catalog host' && alive(u.pid)).at(-1)
      if (host) return host.pid
      if (this.ended) throw new Error('main has ended; no catalog host runs')
      await new Promise<void>((resolve) => {
        this.utilityWaiters.push(resolve)
        setTimeout(resolve, 200)
      })
    }
  }

  async loadFromMain(url: string): Promise<void> {
    const [win] = [...this.windows.values()]
    if (!win) throw new Error('no window')
    win.mainLoad = url
    try {
      await win.page.goto(url)
    } finally {
      win.mainLoad = null
    }
  }

  async closeWindow(): Promise<void> {
    const [win] = [...this.windows.values()]
    if (!win) return
    this.send({ t: 'close-window', win: win.id })
    await win.closed
  }

  async quit(): Promise<void> {
    const closing = [...this.windows.values()].map((w) => w.closed)
    this.send({ t: 'quit' })
    await this.exit
    await Promise.all(closing)
    await Promise.all(this.closing)
  }

  exited(): Promise<void> {
    return this.exit
  }

  protocolClients(): string[] {
    return [...this.protocols]
  }

  openUrl(url: string): void {
    this.send({ t: 'open-url', url })
  }

  async dispose(): Promise<void> {
    if (!this.ended) {
      this.child.kill('SIGKILL')
      await this.exit
    }
    // Main's end reaches its utility processes as a closed channel and they stop on their own; a test's clean-up
    // does not wait for that (nor for one a test paused with SIGSTOP).
    for (const { pid } of this.utilities) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        // already gone
      }
    }
    await Promise.all([...this.windows.values()].map((w) => w.context.close().catch(() => undefined)))
    this.windows.clear()
    // A window main closed a moment ago may still have its browser writing into userData, which the test removes next.
    await Promise.all(this.closing)
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
