import { describe, expect, it } from 'vitest'
import type { IpcMainInvokeEvent, WebContents } from 'electron'
import { INVOKE_CHANNEL } from '../../src/contract/channels'
import { createSenderCheck, registerIpc, type IpcMainLike } from '../../src/main/ipc'
import { createAppUrlCheck } from '../../src/main/security'
import { CatalogService, MemoryRecentsStore } from '../../src/core/service'

// Electron itself cannot run here; these are plain objects shaped like its WebContents and frames.
const APP_INDEX = 'file:///opt/app/out/renderer/index.html'

function fakeContents(url = APP_INDEX) {
  const mainFrame = { url }
  return { mainFrame } as unknown as WebContents
}

function setup() {
  const handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>()
  const ipcMain: IpcMainLike = { handle: (channel, listener) => handlers.set(channel, listener) }
  const appWindow = fakeContents()
  const service = new CatalogService({ host: 'electron', version: 'test', recents: new MemoryRecentsStore() })
  const isAppUrl = createAppUrlCheck(APP_INDEX)
  registerIpc(ipcMain, (m, i) => service.dispatch(m, i), createSenderCheck(() => appWindow, isAppUrl))
  const call = (event: Partial<IpcMainInvokeEvent>, method: unknown, input: unknown) =>
    handlers.get(INVOKE_CHANNEL)!(event as IpcMainInvokeEvent, method, input) as Promise<unknown>
  return { handlers, appWindow, call }
}

describe('IPC adapter', () => {
  it('registers exactly one invoke channel', () => {
    const { handlers } = setup()
    expect([...handlers.keys()]).toEqual([INVOKE_CHANNEL])
  })

  it('answers the app window main frame', async () => {
    const { appWindow, call } = setup()
    const result = await call({ sender: appWindow, senderFrame: appWindow.mainFrame }, 'connections/list', {})
    expect(result).toEqual({ ok: true, value: [] })
  })

  it('refuses a foreign window', async () => {
    const { call } = setup()
    const other = fakeContents()
    const result = await call({ sender: other, senderFrame: other.mainFrame }, 'connections/list', {})
    expect(result).toMatchObject({ ok: false, error: { code: 'permission_denied' } })
  })

  it('refuses a subframe of the app window', async () => {
    const { appWindow, call } = setup()
    const subframe = { url: APP_INDEX } as unknown as IpcMainInvokeEvent['senderFrame']
    const result = await call({ sender: appWindow, senderFrame: subframe }, 'connections/list', {})
    expect(result).toMatchObject({ ok: false, error: { code: 'permission_denied' } })
  })

  it('refuses the app window once it navigated elsewhere', async () => {
    const handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>()
    const hijacked = fakeContents('https://evil.example/')
    const service = new CatalogService({ host: 'electron', version: 'test', recents: new MemoryRecentsStore() })
    registerIpc({ handle: (c, l) => handlers.set(c, l) }, (m, i) => service.dispatch(m, i), createSenderCheck(() => hijacked, createAppUrlCheck(APP_INDEX)))
    const result = await handlers.get(INVOKE_CHANNEL)!({ sender: hijacked, senderFrame: hijacked.mainFrame } as IpcMainInvokeEvent, 'connections/list', {})
    expect(result).toMatchObject({ ok: false, error: { code: 'permission_denied' } })
  })

  it('refuses unknown methods', async () => {
    const { appWindow, call } = setup()
    const result = await call({ sender: appWindow, senderFrame: appWindow.mainFrame }, 'fs/readFile', { path: '/etc/passwd' })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('Unknown method') } })
  })

  it('gives a readable error for bad input, naming the field', async () => {
    const { appWindow, call } = setup()
    const event = { sender: appWindow, senderFrame: appWindow.mainFrame }
    const result = (await call(event, 'tables/page', { connectionId: 'c1', namespace: ['demo', '..'], name: 't', offset: -1, limit: 10 })) as {
      ok: false
      error: { code: string; message: string }
    }
    expect(result.ok).toBe(false)
    expect(result.error.code).toBe('invalid_input')
    expect(result.error.message).toContain('namespace.1')
    expect(result.error.message).toContain('offset')
  })

  it('refuses a path-traversal table name', async () => {
    const { appWindow, call } = setup()
    const event = { sender: appWindow, senderFrame: appWindow.mainFrame }
    const result = await call(event, 'tables/describe', { connectionId: 'c1', namespace: [], name: '../../etc' })
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining('name') } })
  })
})
