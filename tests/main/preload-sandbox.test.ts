import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { EventEmitter } from 'node:events'
import * as timers from 'node:timers'
import * as url from 'node:url'
import { describe, expect, it } from 'vitest'
import { EVENT_CHANNEL, INVOKE_CHANNEL, LINK_CHANNEL, PORT_CHANNEL } from '../../src/contract/channels'
import { api } from '../../src/contract/api'
import { METHOD_NAMES } from '../../src/contract/methods'

/**
 * The BUILT preload (out/preload/index.js), loaded the way a sandboxed Electron renderer loads it: one file, in a
 * context without Node's globals, with a `require` that knows only electron, events, timers and url (also with
 * `node:`) — anything else throws "module not found", as Electron's polyfill does. The `electron` it gets is a
 * stand-in that records what the preload asks of contextBridge, ipcRenderer and webUtils.
 */
const PRELOAD = join(__dirname, '..', '..', 'out', 'preload', 'index.js')
const SANDBOX_MODULES = new Set(['electron', 'events', 'timers', 'url'])

function standInElectron() {
  const exposed = new Map<string, unknown>()
  const invokes: unknown[][] = []
  const sent: unknown[][] = []
  const listeners = new EventEmitter()
  return {
    exposed,
    invokes,
    sent,
    listeners,
    module: {
      contextBridge: { exposeInMainWorld: (key: string, value: unknown) => exposed.set(key, value) },
      ipcRenderer: {
        invoke: (...args: unknown[]) => {
          invokes.push(args)
          return Promise.resolve({ ok: true, value: 'from main' })
        },
        send: (...args: unknown[]) => sent.push(args),
        on: (channel: string, listener: (...args: unknown[]) => void) => listeners.on(channel, listener),
        removeListener: (channel: string, listener: (...args: unknown[]) => void) => listeners.removeListener(channel, listener),
      },
      webUtils: { getPathForFile: (file: { name: string }) => `/dropped/${file.name}` },
    },
  }
}

/** Run `source` as Electron runs a sandboxed preload; answers the error it threw, if any. */
function loadSandboxed(source: string, electron: unknown): Error | null {
  const required: string[] = []
  const sandboxRequire = (name: string) => {
    required.push(name)
    const bare = name.replace(/^node:/, '')
    if (!SANDBOX_MODULES.has(bare)) throw new Error(`module not found: ${name}`)
    return { electron, events: { EventEmitter }, timers, url }[bare]
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname) {\n${source}\n})`
  // A fresh context: no process, no Buffer from Node's require, no way to reach the test's modules.
  const fn = runInNewContext(wrapped, { console, Promise }, { filename: PRELOAD }) as (...args: unknown[]) => void
  const module = { exports: {} }
  try {
    fn(module.exports, sandboxRequire, module, PRELOAD, join(PRELOAD, '..'))
    return null
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

describe('the built preload under the sandbox rules', () => {
  it('exists (npm run build makes it)', () => {
    expect(existsSync(PRELOAD), `${PRELOAD} is missing: run npm run build first`).toBe(true)
  })

  it('the loader is strict: a preload that needs an npm package throws, as in Electron', () => {
    const error = loadSandboxed('const { z } = require("zod"); require("electron").contextBridge.exposeInMainWorld("catalog", {})', standInElectron().module)
    expect(error?.message).toBe('module not found: zod')
    expect(loadSandboxed('require("node:events"); require("timers"); require("url")', standInElectron().module)).toBeNull()
  })

  it('loads, exposes the bridge, and the bridge reaches ipcRenderer.invoke', async () => {
    const electron = standInElectron()
    expect(loadSandboxed(readFileSync(PRELOAD, 'utf8'), electron.module)).toBeNull()
    expect([...electron.exposed.keys()]).toEqual(['catalog'])
    const bridge = electron.exposed.get('catalog') as {
      invoke(method: string, input: unknown): Promise<unknown>
      on(event: string, listener: (payload: unknown) => void): () => void
      getPathForFile(file: { name: string }): string
    }
    expect(Object.keys(bridge).sort()).toEqual(['getPathForFile', 'invoke', 'on'])

    expect(await bridge.invoke('app/info', {})).toEqual({ ok: true, value: 'from main' })
    expect(electron.invokes).toEqual([[INVOKE_CHANNEL, 'app/info', {}]])

    const seen: unknown[] = []
    const before = electron.listeners.listenerCount(EVENT_CHANNEL)
    const off = bridge.on('jobs/progress', (payload) => seen.push(payload))
    electron.listeners.emit(EVENT_CHANNEL, {}, 'export/progress', { id: 'other' })
    electron.listeners.emit(EVENT_CHANNEL, {}, 'jobs/progress', { id: 'j1' })
    off()
    electron.listeners.emit(EVENT_CHANNEL, {}, 'jobs/progress', { id: 'j2' })
    expect(seen).toEqual([{ id: 'j1' }])
    expect(electron.listeners.listenerCount(EVENT_CHANNEL)).toBe(before)

    expect(bridge.getPathForFile({ name: 'a.arrow' })).toBe('/dropped/a.arrow')
  })

  it("asks main for its port to the catalog host; calls answering bytes go over it, the rest through main; a stopped host's calls are answered", async () => {
    const electron = standInElectron()
    expect(loadSandboxed(readFileSync(PRELOAD, 'utf8'), electron.module)).toBeNull()
    // The port, and the links to a view held for the page (see the links test below).
    expect(electron.sent).toEqual([[PORT_CHANNEL], [LINK_CHANNEL]])
    const bridge = electron.exposed.get('catalog') as { invoke(method: string, input: unknown): Promise<unknown> }
    // Before the port comes, everything goes through main.
    await bridge.invoke('tables/page', { a: 1 })
    expect(electron.invokes.map((c) => c[1])).toEqual(['tables/page'])
    // Main hands over a port (a DOM MessagePort in Electron): pages go over it, answered from the host's end.
    const posted: { id: number; method: string; input: unknown }[] = []
    const port = { onmessage: null as null | ((e: { data: unknown }) => void), closed: false, postMessage: (m: { id: number; method: string; input: unknown }) => posted.push(m), close: () => (port.closed = true) }
    electron.listeners.emit(PORT_CHANNEL, { ports: [port] })
    const page = bridge.invoke('tables/page', { offset: 0 })
    expect(posted).toEqual([{ id: 1, method: 'tables/page', input: { offset: 0 } }])
    port.onmessage!({ data: { id: 1, result: { ok: true, value: 'rows' } } })
    expect(await page).toEqual({ ok: true, value: 'rows' })
    // What is not bytes still goes through main.
    await bridge.invoke('tables/describe', {})
    expect(electron.invokes.map((c) => c[1])).toEqual(['tables/page', 'tables/describe'])
    expect(posted.map((m) => m.method)).toEqual(['tables/page'])
    // The host stops with a page in flight: the call is answered in words, the port dropped, calls go through main.
    const waiting = bridge.invoke('map/coords', { jobId: 'm1' })
    electron.listeners.emit(EVENT_CHANNEL, {}, 'host/status', { state: 'stopped', message: 'gone' })
    expect(await waiting).toMatchObject({ ok: false, error: { code: 'unavailable', message: 'The catalog host stopped while this call ran' } })
    expect(port.closed).toBe(true)
    await bridge.invoke('tables/page', {})
    expect(electron.invokes.map((c) => c[1])).toEqual(['tables/page', 'tables/describe', 'tables/page'])
  })

  it('refuses unknown methods in the preload: nothing reaches main', async () => {
    const electron = standInElectron()
    expect(loadSandboxed(readFileSync(PRELOAD, 'utf8'), electron.module)).toBeNull()
    const bridge = electron.exposed.get('catalog') as { invoke(method: unknown, input: unknown): Promise<unknown> }
    for (const method of ['fs/readFile', '__proto__', 'toString', 42, null]) {
      expect(await bridge.invoke(method, {})).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('Unknown method') } })
    }
    expect(electron.invokes).toEqual([])
  })

  it('hands links to a view from main to the page as app/openLink, holding those that came before the page listened', () => {
    const electron = standInElectron()
    expect(loadSandboxed(readFileSync(PRELOAD, 'utf8'), electron.module)).toBeNull()
    const bridge = electron.exposed.get('catalog') as { on(event: string, listener: (payload: unknown) => void): () => void }
    // main answers the page's ask with the link of the command line, before React has subscribed.
    electron.listeners.emit(LINK_CHANNEL, {}, 'lance-catalog://open?first')
    electron.listeners.emit(LINK_CHANNEL, {}, { not: 'a string' })
    const seen: unknown[] = []
    const off = bridge.on('app/openLink', (payload) => seen.push(payload))
    expect(seen).toEqual([{ url: 'lance-catalog://open?first' }])
    electron.listeners.emit(LINK_CHANNEL, {}, 'lance-catalog://open?second')
    off()
    electron.listeners.emit(LINK_CHANNEL, {}, 'lance-catalog://open?held')
    expect(seen).toEqual([{ url: 'lance-catalog://open?first' }, { url: 'lance-catalog://open?second' }])
  })

  it("the preload's method list is the contract's", () => {
    expect([...METHOD_NAMES].sort()).toEqual(Object.keys(api).sort())
  })
})
