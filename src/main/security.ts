import { posix } from 'node:path'
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
  const appDir = filePath(new URL('.', rendererIndexUrl))
  const devOrigin = devServerUrl ? new URL(devServerUrl).origin : null
  return (url: string): boolean => {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return false
    }
    if (devOrigin && parsed.origin === devOrigin) return true
    // Compare decoded, normalised paths, never URL text: `..%2F` is not resolved by the URL parser but
    // is by whoever later reads the file.
    if (parsed.protocol !== 'file:' || appDir === null) return false
    const path = filePath(parsed)
    return path !== null && path.startsWith(appDir.endsWith('/') ? appDir : `${appDir}/`)
  }
}

/** The decoded, normalised path of a file: URL with no host; null when it cannot be trusted. */
function filePath(url: URL): string | null {
  if (url.protocol !== 'file:' || (url.host !== '' && url.host !== 'localhost')) return null
  let decoded: string
  try {
    decoded = decodeURIComponent(url.pathname)
  } catch {
    return null
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null
  return posix.normalize(decoded)
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
