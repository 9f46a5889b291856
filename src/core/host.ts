import { AppError, type AppInfo } from '../contract'
import type { InitialCatalog } from './connections/openConnections'
import type { Handlers } from './handlers'

type FileFilters = { name: string; extensions: string[] }[]

/** What the host (Electron's main, or the harness) gives the app: who it is, and its native dialogs if any. */
export interface HostOptions {
  host: AppInfo['host']
  version: string
  /** Native folder picker (Electron only). */
  pickDirectory?: () => Promise<string | null>
  /** Native file picker for import (Electron only); resolves with the chosen paths, `[]` when cancelled. */
  pickFiles?: (filters?: FileFilters) => Promise<string[]>
  /** Native save dialog for export (Electron only); resolves with the chosen path, null when cancelled. */
  saveFile?: (options: { defaultName?: string; filters?: FileFilters }) => Promise<string | null>
}

/** `app/info` and the native dialogs: refused in words where the host has none (a browser). */
export function hostHandlers(options: HostOptions, initial: () => Promise<InitialCatalog>) {
  return {
    'app/info': async () => {
      const { connection, error } = await initial()
      return {
        version: options.version,
        host: options.host,
        initialConnection: connection,
        ...(error ? { initialError: error } : {}),
        canPickDirectory: options.pickDirectory !== undefined,
      }
    },
    // Main answers it in the desktop app (the catalog host is its child process); anywhere else the core runs in the
    // process that serves the window, and restarting it is restarting that program.
    'app/restartHost': async () => {
      throw new AppError('unsupported', 'Only the desktop app restarts its catalog host', { hint: 'Restart the harness or the server instead' })
    },
    'dialogs/pickDirectory': async () => {
      if (!options.pickDirectory) throw new AppError('unsupported', 'No folder dialog here; type or paste the path instead')
      return { path: await options.pickDirectory() }
    },
    'dialogs/pickFiles': async ({ filters }) => {
      if (!options.pickFiles) throw new AppError('unsupported', 'No file dialog here; drop the files on the window instead')
      return { paths: await options.pickFiles(filters) }
    },
    'dialogs/saveFile': async ({ defaultName, filters }) => {
      if (!options.saveFile) throw new AppError('unsupported', 'No save dialog here; the browser downloads the file instead')
      return { path: await options.saveFile({ defaultName, filters }) }
    },
  } satisfies Partial<Handlers>
}
