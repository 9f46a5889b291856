import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { AppError, type AppInfo, type McpLauncher } from '../contract'
import type { InitialCatalog } from './connections/openConnections'
import type { Handlers } from './handlers'

type FileFilters = { name: string; extensions: string[] }[]

/** What the host (Electron's main, or the harness) gives the app: who it is, and its native dialogs if any. */
export interface HostOptions {
  host: AppInfo['host']
  version: string
  /** How this checkout starts its MCP server (`app/info`'s `mcpLauncher`); absent outside a checkout. */
  mcpLauncher?: AppInfo['mcpLauncher']
  /** Native folder picker (Electron only). */
  pickDirectory?: () => Promise<string | null>
  /** Native file picker for import (Electron only); resolves with the chosen paths, `[]` when cancelled. */
  pickFiles?: (filters?: FileFilters) => Promise<string[]>
  /** Native save dialog for export (Electron only); resolves with the chosen path, null when cancelled. */
  saveFile?: (options: { defaultName?: string; filters?: FileFilters }) => Promise<string | null>
}

/**
 * How an assistant starts the MCP server of the checkout at `repoRoot` (`npm run mcp`, quiet: on stdio npm's own
 * banner would break the protocol), or undefined when `repoRoot` is not a checkout with it (a packaged app).
 */
export function mcpLauncherOf(repoRoot: string): McpLauncher | undefined {
  if (!existsSync(join(repoRoot, 'src', 'mcp', 'cli.ts')) || !existsSync(join(repoRoot, 'package.json'))) return undefined
  // Windows starts npm through its .cmd shim (an assistant spawns the command without a shell).
  return { command: process.platform === 'win32' ? 'npm.cmd' : 'npm', args: ['--prefix', repoRoot, 'run', '--silent', 'mcp', '--'] }
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
        ...(options.mcpLauncher ? { mcpLauncher: options.mcpLauncher } : {}),
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
