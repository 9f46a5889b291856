import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { INVOKE_CHANNEL } from '../../src/contract/channels'
import { bundleScript, REPO } from '../helpers/bundle'

// The Electron binary cannot exist here, so `electron` is replaced by plain objects that record what
// main asks of it. Everything behind it (the catalog host process, service, demo catalog, Lance) is real.
const recorded = vi.hoisted(() => ({
  userData: '',
  handlers: new Map<string, (event: unknown, ...args: unknown[]) => unknown>(),
  windows: [] as Array<{ options: { webPreferences: Record<string, unknown> }; url?: string; webContents: Record<string, unknown> }>,
  permissionHandler: undefined as undefined | ((c: unknown, p: string, cb: (ok: boolean) => void) => void),
  menuSet: false,
  openHandler: undefined as undefined | ((d: { url: string }) => { action: string }),
  duringLoad: undefined as unknown,
  /** The catalog host, bundled from src/host (main forks out/main/host.js in the build). */
  hostBundle: '',
  hosts: [] as Array<{ kill(): boolean }>,
}))

vi.mock('electron', async () => {
  // Electron's utility process as the desktop rig provides it: a Node child with process.parentPort.
  const { fork } = await import('../desktop/electron-stand-in/utility-process.cjs')
  class BrowserWindow {
    static getAllWindows = () => recorded.windows
    webContents: Record<string, unknown>
    constructor(readonly options: { webPreferences: Record<string, unknown> }) {
      const mainFrame = { url: '' }
      this.webContents = {
        mainFrame,
        setWindowOpenHandler: (h: (d: { url: string }) => { action: string }) => (recorded.openHandler = h),
        on: () => undefined,
        send: () => undefined,
        isDestroyed: () => false,
      }
      recorded.windows.push(this as never)
    }
    once() {}
    on() {}
    show() {}
    maximize() {}
    isDestroyed() {
      return false
    }
    isMaximized() {
      return false
    }
    getNormalBounds() {
      return { width: 1000, height: 700, x: 0, y: 0 }
    }
    async loadURL(url: string) {
      ;(this as unknown as { url: string }).url = url
      ;(this.webContents.mainFrame as { url: string }).url = url
      // The renderer's first calls arrive while its page is still loading, before loadURL resolves.
      const invoke = recorded.handlers.get(INVOKE_CHANNEL)
      recorded.duringLoad = invoke ? await invoke({ sender: this.webContents, senderFrame: this.webContents.mainFrame }, 'connections/recent', {}) : 'no handler yet'
    }
  }
  return {
    app: {
      getPath: () => recorded.userData,
      getVersion: () => '0.0.0-test',
      isPackaged: true,
      requestSingleInstanceLock: () => true,
      setAsDefaultProtocolClient: () => true,
      whenReady: () => Promise.resolve(),
      on: () => undefined,
      quit: () => undefined,
    },
    ipcMain: { handle: (channel: string, fn: (event: unknown, ...args: unknown[]) => unknown) => recorded.handlers.set(channel, fn) },
    utilityProcess: {
      fork: (_path: string, args: string[], options: object) => {
        const child = fork(recorded.hostBundle, args, options)
        recorded.hosts.push(child)
        return child
      },
    },
    BrowserWindow,
    dialog: { showOpenDialog: async () => ({ canceled: true, filePaths: [] }) },
    Menu: { buildFromTemplate: (t: unknown) => t, setApplicationMenu: () => (recorded.menuSet = true) },
    session: { defaultSession: { setPermissionRequestHandler: (h: typeof recorded.permissionHandler) => (recorded.permissionHandler = h) } },
    shell: { openExternal: async () => undefined },
    safeStorage: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
  }
})

describe('main boot sequence', () => {
  afterAll(() => {
    for (const host of recorded.hosts) host.kill()
  })

  it('creates a hardened window, answers IPC from it, and opens the demo catalog', { timeout: 120_000 }, async () => {
    recorded.userData = mkdtempSync(join(tmpdir(), 'lcb-main-'))
    recorded.hostBundle = await bundleScript(join(REPO, 'src', 'host', 'index.ts'))
    await import('../../src/main/index')
    await vi.waitFor(() => expect(recorded.windows).toHaveLength(1), { timeout: 10_000 })
    const win = recorded.windows[0]!
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false })
    expect(recorded.openHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' })
    let granted: boolean | undefined
    recorded.permissionHandler?.(null, 'camera', (ok) => (granted = ok))
    expect(granted).toBe(false)
    await vi.waitFor(() => expect(recorded.menuSet).toBe(true), { timeout: 30_000 })
    // A call made while the page loads is answered: the sender check knows the window before its page has loaded.
    expect(recorded.duringLoad).toMatchObject({ ok: true })

    const invoke = recorded.handlers.get(INVOKE_CHANNEL)!
    const trusted = { sender: win.webContents, senderFrame: win.webContents.mainFrame }
    const info = (await invoke(trusted, 'app/info', {})) as { ok: boolean; value: { initialConnection: { label: string; id: string } | null } }
    expect(info.ok).toBe(true)
    expect(info.value.initialConnection?.label).toBe('demo-catalog')
    const top = (await invoke(trusted, 'namespaces/list', { connectionId: info.value.initialConnection!.id, namespace: [] })) as {
      value: { items: string[] }
    }
    expect(top.value.items).toContain('demo')

    const foreign = { sender: {}, senderFrame: {} }
    expect(await invoke(foreign, 'app/info', {})).toMatchObject({ ok: false, error: { code: 'permission_denied' } })
  })
})
