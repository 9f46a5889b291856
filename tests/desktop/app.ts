import type { Locator, Page } from '@playwright/test'

/**
 * The desktop app as the flows in tests/desktop/flows.ts drive it. Two launchers implement it: the desktop rig
 * (tests/desktop/rig: the real main bundle on Node with an `electron` stand-in, real Chromium as the window) and
 * Playwright's `_electron` (tests/electron: the real app, where an Electron binary exists).
 */
export interface DesktopApp {
  readonly kind: 'rig' | 'electron'
  readonly userData: string
  /** The app's window, once main has loaded it. */
  window(): Promise<Page>
  /** Answer the next native dialog of this kind: paths chosen (open), a path (save), or null (cancelled). */
  answerNextDialog(kind: 'open', answer: string[] | null): Promise<void>
  answerNextDialog(kind: 'save', answer: string | null): Promise<void>
  /** The native dialogs main showed, in order, with their options. */
  dialogsShown(): Promise<{ kind: 'open' | 'save' | 'message'; options: Record<string, unknown> }[]>
  /** Click an application-menu item by its labels, e.g. ('File', 'Import…'). */
  clickMenu(...path: string[]): Promise<void>
  /** The menu item with this accelerator (e.g. 'CmdOrCtrl+I'), as the keyboard shortcut would. */
  pressAccelerator(accelerator: string): Promise<void>
  /**
   * The catalog calls the window made, in order, and which way each went: through main (`invoke`) or over the
   * window's port to the catalog host (`port`; real Electron's launcher sees only main's, so it lists those).
   */
  invokes(): Promise<{ method: string; input: unknown; via: 'invoke' | 'port' }[]>
  /** URLs main handed to shell.openExternal. */
  openedExternally(): Promise<string[]>
  /** Drop files or folders from disk onto `target`, as the OS drag and drop does (their paths are known to webUtils). */
  dropPaths(target: Locator, paths: string[]): Promise<void>
  /** main's own webContents.loadURL (no will-navigate), e.g. to put a foreign page in the app's window. */
  loadFromMain(url: string): Promise<void>
  /** The user closes the window (on Linux and Windows the app then quits). */
  closeWindow(): Promise<void>
  /** app.quit(), and wait until the process has ended. */
  quit(): Promise<void>
  /** Resolves when the app's process has ended. */
  exited(): Promise<void>
  /** The catalog host's process id (main starts it as a utility process; a test ends it as a crash would). */
  hostPid(): Promise<number>
  /** What main printed (stdout and stderr). */
  output(): string
  /** End the app whatever its state (test clean-up). */
  dispose(): Promise<void>
}

export interface LaunchOptions {
  userData: string
  /** safeStorage.isEncryptionAvailable() (default true). */
  encryption?: boolean
  /** The rig only: load this preload instead of the one main names (to see a broken preload reported). */
  replacePreload?: string
}

export type Launcher = (options: LaunchOptions) => Promise<DesktopApp>

/** 'CmdOrCtrl+Shift+O' and 'Ctrl+Shift+O' name the same shortcut here. */
export function normalizeAccelerator(accelerator: string): string {
  return accelerator
    .split('+')
    .map((part) => part.trim().toLowerCase())
    .map((part) => (['cmdorctrl', 'commandorcontrol', 'ctrl', 'control', 'cmd', 'command'].includes(part) ? 'mod' : part))
    .sort()
    .join('+')
}
