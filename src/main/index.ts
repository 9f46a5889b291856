import { app, BrowserWindow, dialog, ipcMain, MessageChannelMain, Menu, session, utilityProcess } from 'electron'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { EventName, Events } from '../contract'
import { PORT_CHANNEL } from '../contract/channels'
import { HOST_ENTRY, type HostAsk } from '../host/protocol'
import { CatalogHost, type HostProcess } from './catalogHost'
import { createSenderCheck, registerIpc, registerPortRequests, sendEvent } from './ipc'
import { LinkInbox, linkFromArgv, registerLinkRequests } from './links'
import { buildMenu } from './menu'
import { createSaveFile } from './saveDialog'
import { SafeStorageSecretStore } from './secrets'
import { createAppUrlCheck } from './security'
import { createMainWindow } from './window'
import { WindowState } from './windowState'

/**
 * Boot sequence. Main only orchestrates — the window, the menu, native dialogs, the keychain — and every catalog
 * call goes on to the catalog host, a utility process (src/host), so nothing a catalog or a file does can freeze
 * or end the window. Order matters where commented; everything else is a list of registerX() calls.
 */
let mainWindow: BrowserWindow | null = null

const urls = {
  indexUrl: pathToFileURL(join(__dirname, '../renderer/index.html')).href,
  devServerUrl: !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined,
}
/** What "Import…" offers; the core tells formats apart by their bytes, so "All files" is safe. */
const IMPORT_FILTERS = [
  { name: 'Importable data', extensions: ['arrow', 'arrows', 'feather', 'ipc', 'parquet', 'csv', 'tsv', 'txt', 'json', 'jsonl', 'ndjson', 'gz', 'zst', 'xlsx'] },
  { name: 'Arrow IPC', extensions: ['arrow', 'arrows', 'feather', 'ipc'] },
  { name: 'Parquet', extensions: ['parquet'] },
  { name: 'CSV / TSV', extensions: ['csv', 'tsv', 'txt'] },
  { name: 'JSON, JSON lines', extensions: ['json', 'jsonl', 'ndjson'] },
  { name: 'Excel workbook', extensions: ['xlsx'] },
  { name: 'Compressed (gzip, zstd)', extensions: ['gz', 'zst'] },
  { name: 'All files', extensions: ['*'] },
]
const isAppUrl = createAppUrlCheck(urls.indexUrl, urls.devServerUrl)
const userData = app.getPath('userData')
const windowState = new WindowState(userData)
// One secret store for REST keys and object-store secrets: both write the same encrypted file. Only main can use
// safeStorage; the host asks for a secret when it opens a saved connection.
const secrets = new SafeStorageSecretStore(join(userData, 'secrets.json'))
const saveFile = createSaveFile(() => mainWindow)
const emit = <E extends EventName>(name: E, payload: Events[E]) => sendEvent(mainWindow?.webContents ?? null, name, payload)

const host = new CatalogHost({
  // Electron's utility process: a Node process of its own; its stderr is kept to say why it stopped.
  fork: () => utilityProcess.fork(join(__dirname, HOST_ENTRY), [], { serviceName: 'Lance catalog host', stdio: ['ignore', 'inherit', 'pipe'] }) as unknown as HostProcess,
  userData,
  version: app.getVersion(),
  answer: answerHost,
  emit,
  channel: () => new MessageChannelMain(),
  // The window's port led to the host that stopped: give it one to the new host, if it is still the app's page.
  onRestarted: () => {
    const contents = mainWindow?.webContents
    if (contents && !contents.isDestroyed() && isAppUrl(contents.mainFrame.url)) host.connect(contents, PORT_CHANNEL)
  },
})

/** What the host asks of main: native dialogs (attached to the window) and the keychain. */
async function answerHost(ask: HostAsk): Promise<unknown> {
  switch (ask.op) {
    case 'pickDirectory': {
      const options = { title: 'Open a Lance catalog directory', properties: ['openDirectory' as const] }
      const picked = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options)
      return picked.canceled ? null : (picked.filePaths[0] ?? null)
    }
    case 'pickFiles': {
      const options = { title: 'Import files', properties: ['openFile' as const, 'multiSelections' as const], filters: ask.filters ?? IMPORT_FILTERS }
      const picked = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options)
      return picked.canceled ? [] : picked.filePaths
    }
    case 'saveFile':
      return saveFile({ defaultName: ask.defaultName, filters: ask.filters })
    case 'secret.get':
      return secrets.get(ask.key)
    case 'secret.set':
      return secrets.set(ask.key, ask.value)
    case 'secret.delete':
      return secrets.delete(ask.key)
  }
}

// Links to a view (`lance-catalog://open?…`): the OS starts the app with one, or hands it to the running app.
const links = new LinkInbox()
registerProtocol()

// One instance: a second launch hands its command line (a link, maybe) to the first window and quits; it starts
// nothing of its own (no host, no window).
if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', (_event, argv) => {
    if (mainWindow?.isMinimized()) mainWindow.restore()
    mainWindow?.focus()
    const link = linkFromArgv(argv)
    if (link) links.receive(link)
  })
  // macOS hands links to the running app (and to the one it starts) as open-url, not in argv.
  app.on('open-url', (event, url) => {
    event.preventDefault()
    links.receive(url)
  })
  const startLink = linkFromArgv(process.argv)
  if (startLink) links.receive(startLink)
  app.whenReady().then(onReady, (error: unknown) => {
    console.error('start-up failed:', error instanceof Error ? error.message : error)
    app.quit()
  })
}

/** This app opens `lance-catalog://` links. Unpackaged (`electron .`), the OS must also be told which script to run. */
function registerProtocol(): void {
  const script = process.argv[1]
  const registered = process.defaultApp && script ? app.setAsDefaultProtocolClient('lance-catalog', process.execPath, [resolve(script)]) : app.setAsDefaultProtocolClient('lance-catalog')
  if (!registered) console.error('could not register as the handler of lance-catalog:// links')
}

async function onReady(): Promise<void> {
  denyAllPermissions()
  // The host starts first (a utility process needs the app ready): it opens the demo catalog while the window loads.
  host.start()
  // IPC before the window loads, so the renderer's first call finds its handler.
  const senderCheck = createSenderCheck(() => mainWindow?.webContents ?? null, isAppUrl)
  registerIpc(ipcMain, (method, input) => host.dispatch(method, input), senderCheck)
  // The window's calls then go straight to the host over a port of their own (no copy through main).
  registerPortRequests(ipcMain, (sender) => host.connect(sender, PORT_CHANNEL), senderCheck)
  // Links wait until the page says it can take them (its preload asks on LINK_CHANNEL).
  registerLinkRequests(ipcMain, links, senderCheck)
  // The window is known to the sender check before its page loads (the renderer calls while it loads).
  mainWindow = await createMainWindow(windowState, urls, isAppUrl, (created) => (mainWindow = created))
  Menu.setApplicationMenu(buildMenu((command) => emit('app/command', { command }), process.platform === 'darwin'))
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createMainWindow(windowState, urls, isAppUrl, (created) => (mainWindow = created))
  })
}

/** The renderer needs no camera, notifications or geolocation: refuse every permission request. */
function denyAllPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

// Quitting waits (a few seconds at most) for the host to cancel its jobs and close its catalogs: Electron ends a
// utility process with the app, and an import cut off mid-write would only be undone at the next open.
let hostStopped = false
app.on('before-quit', (event) => {
  if (hostStopped || !host.running) return
  event.preventDefault()
  void host.stop().then(() => {
    hostStopped = true
    app.quit()
  })
})
