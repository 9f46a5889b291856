import { app, BrowserWindow, dialog, ipcMain, Menu, session } from 'electron'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ConnectionStore, JsonFileConnectionRecords } from '../core/connections/store'
import { ObjectStoreConnectionStore, type SavedObjectStore } from '../core/connections/objectStoreStore'
import { ensureDemoCatalog } from '../core/demo'
import { CatalogService } from '../core/service'
import { SettingsFile } from '../core/settings'
import { FileSideCache } from '../core/sideCache'
import { createSenderCheck, registerIpc, sendEvent } from './ipc'
import { buildMenu } from './menu'
import { createSaveFile } from './saveDialog'
import { SafeStorageSecretStore } from './secrets'
import { createAppUrlCheck } from './security'
import { createMainWindow } from './window'
import { ensureLanceThreads } from '../core/lanceThreads'

// Before any table operation: Lance sizes its CPU pool once (see lanceThreads.ts).
ensureLanceThreads()

/**
 * Boot sequence. Order matters where commented; everything else is a list of registerX() calls.
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
const settings = new SettingsFile(join(userData, 'settings.json'))
// One secret store for REST keys and object-store secrets: both write the same encrypted file.
const secrets = new SafeStorageSecretStore(join(userData, 'secrets.json'))
const service = new CatalogService({
  host: 'electron',
  version: app.getVersion(),
  recents: settings,
  // Connection records hold no secrets; secrets are encrypted with safeStorage in their own file.
  connections: new ConnectionStore(new JsonFileConnectionRecords(join(userData, 'connections.json')), secrets),
  objectStoreConnections: new ObjectStoreConnectionStore(new JsonFileConnectionRecords<SavedObjectStore>(join(userData, 'object-store-connections.json')), secrets),
  // Profiles and map coordinates per table version: beside the settings, never inside the user's catalog.
  sideCache: new FileSideCache(join(userData, 'cache')),
  emit: (name, payload) => sendEvent(mainWindow?.webContents ?? null, name, payload),
  pickDirectory: async () => {
    const options = { title: 'Open a Lance catalog directory', properties: ['openDirectory' as const] }
    const picked = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options)
    return picked.canceled ? null : (picked.filePaths[0] ?? null)
  },
  pickFiles: async (filters) => {
    const options = { title: 'Import files', properties: ['openFile' as const, 'multiSelections' as const], filters: filters ?? IMPORT_FILTERS }
    const picked = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options)
    return picked.canceled ? [] : picked.filePaths
  },
  saveFile: createSaveFile(() => mainWindow),
})

// One instance: a second launch focuses the first window.
if (!app.requestSingleInstanceLock()) app.quit()
app.on('second-instance', () => {
  if (mainWindow?.isMinimized()) mainWindow.restore()
  mainWindow?.focus()
})

app.whenReady().then(onReady, (error: unknown) => {
  console.error('start-up failed:', error instanceof Error ? error.message : error)
  app.quit()
})

async function onReady(): Promise<void> {
  denyAllPermissions()
  // IPC before the window loads, so the renderer's first call finds its handler.
  registerIpc(ipcMain, (method, input) => service.dispatch(method, input), createSenderCheck(() => mainWindow?.webContents ?? null, isAppUrl))
  // The demo catalog is the embedded default; app/info waits for it while the window shows a loading state.
  const demoRoot = join(userData, 'demo-catalog')
  service.openInitial(demoRoot, () => ensureDemoCatalog(demoRoot)).catch(() => {
    // kept by the service and reported through app/info
  })
  // The window is known to the sender check before its page loads (the renderer calls while it loads).
  mainWindow = await createMainWindow(settings, urls, isAppUrl, (created) => (mainWindow = created))
  Menu.setApplicationMenu(buildMenu((command) => sendEvent(mainWindow?.webContents ?? null, 'app/command', { command }), process.platform === 'darwin'))
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createMainWindow(settings, urls, isAppUrl, (created) => (mainWindow = created))
  })
}

/** The renderer needs no camera, notifications or geolocation: refuse every permission request. */
function denyAllPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
}

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

app.on('before-quit', () => {
  void service.closeAll()
})
