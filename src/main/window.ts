import { BrowserWindow, shell } from 'electron'
import { join } from 'node:path'
import type { WindowState } from './windowState'
import { hardenWebContents, secureWebPreferences } from './security'

export interface WindowUrls {
  /** file:// URL of the built renderer's index.html */
  indexUrl: string
  /** electron-vite dev server, in development only */
  devServerUrl?: string
}

/**
 * The main window: hardened, remembers its size and position. `onCreated` gets the window before its page loads:
 * the renderer calls main while the page is still loading, and the IPC sender check must already know the window.
 */
export async function createMainWindow(
  state: WindowState,
  urls: WindowUrls,
  isAppUrl: (url: string) => boolean,
  onCreated: (window: BrowserWindow) => void = () => undefined,
): Promise<BrowserWindow> {
  const saved = await state.read()
  const win = new BrowserWindow({
    width: saved?.width ?? 1280,
    height: saved?.height ?? 820,
    x: saved?.x,
    y: saved?.y,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Lance Catalog Browser',
    webPreferences: secureWebPreferences(join(__dirname, '../preload/index.js')),
  })
  onCreated(win)
  if (saved?.maximized) win.maximize()
  hardenWebContents(win.webContents, isAppUrl, shell)
  win.once('ready-to-show', () => win.show())

  const remember = () => {
    if (win.isDestroyed()) return
    const bounds = win.getNormalBounds()
    void state.write({ ...bounds, maximized: win.isMaximized() })
  }
  win.on('resized', remember)
  win.on('moved', remember)
  win.on('close', remember)

  // A preload that throws leaves the page without window.catalog. Say so in the window, with the error: load the app
  // again with the error in its query (src/renderer/api/transport.ts shows it) — once, so a preload that fails
  // every time cannot loop.
  let bridgeError: string | null = null
  win.webContents.on('preload-error', (_event, preloadPath, error) => {
    console.error(`preload ${preloadPath} failed:`, error)
    bridgeError ??= error instanceof Error ? error.message : String(error)
  })
  const start = urls.devServerUrl ?? urls.indexUrl
  await win.loadURL(start)
  if (bridgeError !== null) await win.loadURL(bridgeErrorUrl(start, bridgeError))
  return win
}

/** The app's URL carrying why its bridge could not start (read by the renderer's transport). */
export function bridgeErrorUrl(appUrl: string, message: string): string {
  const url = new URL(appUrl)
  url.searchParams.set('bridge-error', message.slice(0, 2000))
  return url.href
}
