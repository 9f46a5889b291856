import type { WebContents } from 'electron'

/** Only http(s) links may leave the app, and only to the user's browser (Beekeeper's isSafeExternalUrl). */
export function isSafeExternalUrl(url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.username === '' && parsed.password === ''
}

/**
 * Is `url` the app itself? In production the renderer is a file under `rendererDir`;
 * in development it is the electron-vite dev server (`devServerUrl`).
 */
export function createAppUrlCheck(rendererIndexUrl: string, devServerUrl?: string) {
  const appBase = new URL('.', rendererIndexUrl).href
  const devOrigin = devServerUrl ? new URL(devServerUrl).origin : null
  return (url: string): boolean => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return false
    }
    if (devOrigin && parsed.origin === devOrigin) return true
    return parsed.protocol === 'file:' && parsed.href.startsWith(appBase)
  }
}

export interface Opener {
  openExternal(url: string): Promise<void> | void
}

/** window.open is denied (safe links go to the browser); navigation away from the app is blocked. */
export function hardenWebContents(contents: WebContents, isAppUrl: (url: string) => boolean, opener: Opener): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void opener.openExternal(url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

/** The webPreferences every window gets. */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  } as const
}
