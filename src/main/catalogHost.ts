import type { Readable } from 'node:stream'
import type { EventName, Events, HostStatus, JobInfo, Result } from '../contract'
import type { OpenedCatalog } from '../core/service'
import type { FromHost, HostAsk, ToHost } from '../host/protocol'

/** What main needs of Electron's `UtilityProcess` (the desktop rig's stand-in provides the same). */
export interface HostProcess {
  readonly pid: number | undefined
  readonly stderr: Readable | null
  postMessage(message: ToHost, transfer?: unknown[]): void
  kill(): boolean
  on(event: 'message', listener: (message: FromHost) => void): this
  on(event: 'exit', listener: (code: number) => void): this
}

export interface CatalogHostOptions<Port = unknown> {
  /** Start the host process (`utilityProcess.fork` of out/main/host.js). */
  fork: () => HostProcess
  userData: string
  version: string
  /** Answer the host's question: a native dialog, the keychain. A throw is answered as an error. */
  answer: (ask: HostAsk) => Promise<unknown>
  /** An event for the window. */
  emit: <E extends EventName>(name: E, payload: Events[E]) => void
  /** How often main asks the host whether it answers, and after how long without an answer the window is told. */
  heartbeat?: { everyMs: number; silentMs: number }
  /** A connected pair of ports (Electron's `new MessageChannelMain()`), for {@link CatalogHost.connect}. */
  channel?: () => { port1: Port; port2: Port }
  /** A new host answers after a restart: main gives the window a port to it (its old one led to the old host). */
  onRestarted?: () => void
}

type Pending = (result: Result<unknown>) => void

/** How much of the host's stderr is kept to say why it stopped. */
const STDERR_TAIL = 4096
const HEARTBEAT = { everyMs: 2_000, silentMs: 10_000 }
const STOPPED_MESSAGE = 'The catalog host stopped unexpectedly. Nothing that was written is lost: an unfinished import or change is undone when its catalog opens again.'

/**
 * The catalog host process as main sees it: main only orchestrates (window, menus, dialogs, the keychain) and every
 * renderer call goes on to the host. When the host ends unexpectedly, calls in flight are answered `unavailable`, the
 * jobs it ran are recorded as failed, and the window is told (`host/status`); a host that stops answering (its event
 * loop blocked) is reported too. {@link restart} ends such a host and starts a new one, which opens the same catalogs
 * again under the same ids and keeps those job records.
 */
export class CatalogHost<Port = unknown> {
  private child: HostProcess | null = null
  /** Resolves when the current host said `ready`; calls wait for it. */
  private ready: Promise<void> = Promise.resolve()
  private isReady = false
  private nextCall = 1
  private readonly pending = new Map<number, Pending>()
  /** The catalogs open in the host, as it last said. */
  private opened: OpenedCatalog[] = []
  /** Jobs running or queued in the host, by id (from its `jobs/progress` events). */
  private readonly live = new Map<string, JobInfo>()
  /** Jobs a stopped host was running, ended as failed: handed to the next host for its history. */
  private lost: JobInfo[] = []
  private status: HostStatus = { state: 'running', restarts: 0 }
  private restarts = 0
  private quitting = false
  /** A host being ended by {@link restart}: its exit is expected. */
  private replacing: HostProcess | null = null
  private stderrTail = ''
  private lastPong = Date.now()
  /** When the host was reported not answering. */
  private silentSince = 0
  private heartbeat: ReturnType<typeof setInterval> | null = null
  private restarting: Promise<Result<unknown>> | null = null

  constructor(private readonly options: CatalogHostOptions<Port>) {}

  /** Start the first host (it opens the demo catalog). */
  start(): void {
    this.spawn(null)
    const { everyMs, silentMs } = this.options.heartbeat ?? HEARTBEAT
    this.heartbeat = setInterval(() => this.beat(silentMs), everyMs)
    this.heartbeat.unref?.()
  }

  get pid(): number | undefined {
    return this.child?.pid
  }

  /**
   * Give the window a line of its own to the host: one end of a new channel to the host, the other to `window` (its
   * preload then sends its calls over it, and a page's bytes skip the copy through main). Main decides who gets one
   * (the sender check); nothing happens while no host runs.
   */
  connect(window: { postMessage(channel: string, message: unknown, transfer: Port[]): void }, channelName: string): boolean {
    const child = this.child
    if (!child || !this.options.channel || this.status.state === 'stopped') return false
    const { port1, port2 } = this.options.channel()
    child.postMessage({ t: 'port' }, [port1])
    window.postMessage(channelName, null, [port2])
    return true
  }

  /** Whether a host process is running (not yet stopped by {@link stop} or ended). */
  get running(): boolean {
    return this.child !== null
  }

  /** A renderer call, answered by the host; `unavailable` in words while there is none. */
  async dispatch(method: unknown, input: unknown): Promise<Result<unknown>> {
    if (method === 'app/restartHost') return this.restart()
    if (this.status.state === 'stopped') return unavailable(this.status)
    await this.ready
    const child = this.child
    if (!child) return unavailable(this.status)
    const id = this.nextCall++
    return new Promise<Result<unknown>>((resolve) => {
      this.pending.set(id, resolve)
      try {
        child.postMessage({ t: 'call', id, method, input })
      } catch (error) {
        // The input would not clone (the preload and the sender check let through only what IPC cloned already).
        this.pending.delete(id)
        resolve({ ok: false, error: { code: 'invalid_input', message: `The call could not be passed on: ${error instanceof Error ? error.message : String(error)}` } })
      }
    })
  }

  /**
   * `app/restartHost`: a new host when the last one stopped or stopped answering (that one is ended first, with
   * SIGKILL: a blocked event loop cannot clean up anyway, and the crash-safe paths undo what it left); a host that
   * answers is left as it is.
   */
  restart(): Promise<Result<unknown>> {
    // Asked twice (two windows' clicks, a double click): one new host, both told when it answers.
    this.restarting ??= this.startAgain().finally(() => (this.restarting = null))
    return this.restarting
  }

  private async startAgain(): Promise<Result<unknown>> {
    if (this.quitting) return { ok: false, error: { code: 'unavailable', message: 'The app is quitting' } }
    if (this.status.state === 'running') return { ok: true, value: null }
    const stuck = this.child
    if (stuck) {
      this.replacing = stuck
      const gone = new Promise<void>((resolve) => stuck.on('exit', () => resolve()))
      killHard(stuck)
      await gone
    }
    this.restarts++
    this.spawn(this.opened)
    const spawned = this.child
    await this.ready
    // The new host may have ended before it was ready: its exit has said so (a new `stopped` status).
    if (this.child !== spawned || !this.isReady) return unavailable(this.status)
    this.setStatus({ state: 'running', restarts: this.restarts })
    return { ok: true, value: null }
  }

  /**
   * The app quits: the host cancels its jobs (each cleans up after itself: no half-made table) and closes its
   * catalogs, then exits; resolves when it has, or after `graceMs` (a host that cannot finish is left to the
   * crash-safe paths: what it did not clean up is undone when the catalog opens next).
   */
  stop(graceMs = 5_000): Promise<void> {
    this.quitting = true
    if (this.heartbeat) clearInterval(this.heartbeat)
    const child = this.child
    if (!child) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        killHard(child)
        resolve()
      }, graceMs)
      child.on('exit', () => {
        clearTimeout(timer)
        resolve()
      })
      try {
        child.postMessage({ t: 'stop' })
      } catch {
        // already gone: its exit resolves
      }
    })
  }

  private setStatus(status: HostStatus): void {
    this.status = status
    this.options.emit('host/status', status)
  }

  private spawn(reopen: OpenedCatalog[] | null): void {
    const child = this.options.fork()
    this.child = child
    this.stderrTail = ''
    this.isReady = false
    let markReady: () => void = () => undefined
    this.ready = new Promise<void>((resolve) => (markReady = resolve))
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk)
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL)
    })
    child.on('message', (message) => this.onMessage(child, message, markReady))
    child.on('exit', (code) => {
      markReady()
      this.onExit(child, code)
    })
    const lostJobs = this.lost
    this.lost = []
    child.postMessage({ t: 'start', userData: this.options.userData, version: this.options.version, reopen, lostJobs })
  }

  /** Ask the host whether it answers; say so when it has been silent too long, and when it answers again. */
  private beat(silentMs: number): void {
    const child = this.child
    if (!child || !this.isReady || this.quitting) return
    const silent = Date.now() - this.lastPong
    if (silent > silentMs && this.status.state === 'running') {
      this.silentSince = Date.now()
      this.setStatus({ state: 'unresponsive', message: 'The catalog host is not answering: it may be stuck on a catalog or a file.', silentSeconds: Math.round(silent / 1000) })
    }
    try {
      child.postMessage({ t: 'ping', at: Date.now() })
    } catch {
      // it is ending: its exit says so
    }
  }

  private onMessage(child: HostProcess, message: FromHost, markReady: () => void): void {
    if (child !== this.child) return
    switch (message.t) {
      case 'ready':
        this.isReady = true
        this.lastPong = Date.now()
        markReady()
        return
      case 'pong':
        this.lastPong = Date.now()
        // Only an answer to a question asked after it went silent says it answers again (an older one was late).
        if (this.status.state === 'unresponsive' && message.at >= this.silentSince) this.setStatus({ state: 'running', restarts: this.restarts })
        return
      case 'result': {
        const resolve = this.pending.get(message.id)
        this.pending.delete(message.id)
        resolve?.(message.result)
        return
      }
      case 'event':
        if (message.name === 'jobs/progress') this.track(message.payload as JobInfo)
        this.options.emit(message.name, message.payload as never)
        return
      case 'catalogs':
        this.opened = message.open
        return
      case 'ask':
        void this.answer(child, message.id, message.ask)
        return
    }
  }

  private async answer(child: HostProcess, id: number, ask: HostAsk): Promise<void> {
    let reply: ToHost
    try {
      reply = { t: 'answer', id, ok: true, value: await this.options.answer(ask) }
    } catch (error) {
      const data = (error as { toData?: () => unknown }).toData?.()
      reply = { t: 'answer', id, ok: false, error: (data as never) ?? { code: 'internal', message: error instanceof Error ? error.message : String(error) } }
    }
    try {
      child.postMessage(reply)
    } catch {
      // that host has gone
    }
  }

  private track(job: JobInfo): void {
    if (job.state === 'queued' || job.state === 'running') this.live.set(job.id, job)
    else this.live.delete(job.id)
  }

  private onExit(child: HostProcess, code: number): void {
    if (child !== this.child) return
    this.child = null
    this.isReady = false
    if (this.quitting) return
    const replaced = this.replacing === child
    this.replacing = null
    const reason = replaced ? 'it was not answering and was ended' : describeExit(code, this.stderrTail)
    const status: HostStatus = { state: 'stopped', message: STOPPED_MESSAGE, detail: reason }
    for (const resolve of this.pending.values()) resolve(unavailable(status))
    this.pending.clear()
    // The jobs it ran ended with it: say so in the jobs panel now, and keep them in the next host's history.
    const now = Date.now()
    for (const job of this.live.values()) {
      const ended = { ...job, state: 'failed', finishedAt: now, error: { code: 'unavailable', message: 'The catalog host stopped while this job ran', hint: 'Start the job again', detail: reason } } as JobInfo
      this.lost.push(ended)
      this.options.emit('jobs/progress', ended)
    }
    this.live.clear()
    // A host ended by restart() is followed by a new one at once: no banner for it.
    if (!replaced) this.setStatus(status)
  }
}

/** End a host at once, whatever its state (SIGKILL also ends a process that is paused or whose loop is blocked). */
function killHard(child: HostProcess): void {
  try {
    if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL')
    else child.kill()
  } catch {
    child.kill()
  }
}

function unavailable(status: HostStatus): Result<unknown> {
  return {
    ok: false,
    error: {
      code: 'unavailable',
      message: 'The catalog host is not running',
      hint: 'Restart it from the banner at the top of the window',
      ...(status.state === 'stopped' && status.detail ? { detail: status.detail } : {}),
    },
  }
}

/** The exit as words: its code, and the last lines it wrote to stderr (a native library's panic says what it hit). */
function describeExit(code: number, stderr: string): string {
  const last = stderr.trim().split('\n').filter(Boolean).slice(-3).join(' ')
  return `exit code ${code}${last ? `; it last wrote: ${last.slice(0, 500)}` : ''}`
}
