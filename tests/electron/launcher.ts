import { existsSync, readFileSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { _electron as electron, type ElectronApplication, type Locator } from '@playwright/test'
import { INVOKE_CHANNEL } from '../../src/contract/channels'
import { normalizeAccelerator, type DesktopApp, type LaunchOptions } from '../desktop/app'

/**
 * The real-Electron launcher of the desktop flows (tests/desktop/flows.ts): Playwright's `_electron` starts the built
 * app with the Electron binary, and the test reaches into main with `app.evaluate` where a user would use the OS
 * (answering a dialog, the menu, a dropped file's path). It needs the binary, which `npm start` downloads on a
 * user's machine; where it is absent it says so in one line and the flows skip.
 */
export function electronBinary(): string | null {
  const pkgDir = dirname(require.resolve('electron/package.json'))
  const pathFile = join(pkgDir, 'path.txt')
  if (process.env.ELECTRON_OVERRIDE_DIST_PATH) return join(process.env.ELECTRON_OVERRIDE_DIST_PATH, 'electron')
  if (!existsSync(pathFile)) return null
  const binary = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim())
  return existsSync(binary) ? binary : null
}

const MAIN = join(__dirname, '..', '..', 'out', 'main', 'index.js')

export async function launchElectron(options: LaunchOptions): Promise<DesktopApp> {
  const binary = electronBinary()
  if (!binary) throw new Error('no Electron binary installed here')
  if (options.replacePreload) throw new Error('replacePreload is a rig-only option')
  const app = await electron.launch({
    executablePath: binary,
    args: [MAIN, `--user-data-dir=${options.userData}`, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
  })
  const output: string[] = []
  app.process().stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')))
  app.process().stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')))
  const exit = new Promise<void>((resolve) => app.process().once('exit', () => resolve()))
  // Dialogs answered from a queue the test fills, shell.openExternal recorded, safeStorage as asked, IPC recorded.
  await app.evaluate(({ dialog, shell, safeStorage, ipcMain }, { encryption, invokeChannel }) => {
    const state = { open: [] as unknown[], save: [] as unknown[], shown: [] as unknown[], external: [] as string[], calls: [] as unknown[] }
    ;(globalThis as Record<string, unknown>).__lcbTest = state
    const options = (args: unknown[]) => (args.length > 1 ? args[1] : args[0]) as Record<string, unknown>
    dialog.showOpenDialog = (async (...args: unknown[]) => {
      state.shown.push({ kind: 'open', options: options(args) })
      const answer = state.open.shift() as string[] | null | undefined
      return answer ? { canceled: false, filePaths: answer } : { canceled: true, filePaths: [] }
    }) as typeof dialog.showOpenDialog
    dialog.showSaveDialog = (async (...args: unknown[]) => {
      state.shown.push({ kind: 'save', options: options(args) })
      const answer = state.save.shift() as string | null | undefined
      return answer ? { canceled: false, filePath: answer } : { canceled: true, filePath: '' }
    }) as typeof dialog.showSaveDialog
    shell.openExternal = async (url: string) => {
      state.external.push(url)
    }
    if (!encryption) safeStorage.isEncryptionAvailable = () => false
    const handlers = (ipcMain as unknown as { _invokeHandlers: Map<string, (event: unknown, ...args: unknown[]) => unknown> })._invokeHandlers
    const original = handlers.get(invokeChannel)
    if (original) {
      handlers.set(invokeChannel, (event, ...args) => {
        state.calls.push({ method: args[0], input: args[1], via: 'invoke' })
        return original(event, ...args)
      })
    }
  }, { encryption: options.encryption !== false, invokeChannel: INVOKE_CHANNEL })
  return new ElectronLauncherApp(app, options.userData, output, exit)
}

class ElectronLauncherApp implements DesktopApp {
  readonly kind = 'electron' as const
  constructor(
    private readonly app: ElectronApplication,
    readonly userData: string,
    private readonly log: string[],
    private readonly exit: Promise<void>,
  ) {}

  window() {
    return this.app.firstWindow()
  }

  private async state<T>(read: (state: Record<string, unknown[]>) => T): Promise<T> {
    return read((await this.app.evaluate(() => (globalThis as unknown as { __lcbTest: Record<string, unknown[]> }).__lcbTest)))
  }

  async answerNextDialog(kind: 'open' | 'save', answer: string[] | string | null): Promise<void> {
    await this.app.evaluate((_electron, [k, a]) => {
      ;(globalThis as unknown as { __lcbTest: Record<string, unknown[]> }).__lcbTest[k]!.push(a)
    }, [kind, answer] as const)
  }

  dialogsShown() {
    return this.state((s) => s.shown as { kind: 'open' | 'save' | 'message'; options: Record<string, unknown> }[])
  }

  invokes() {
    return this.state((s) => s.calls as { method: string; input: unknown; via: 'invoke' | 'port' }[])
  }

  openedExternally() {
    return this.state((s) => s.external as string[])
  }

  async clickMenu(...path: string[]): Promise<void> {
    const clicked = await this.app.evaluate(({ Menu, BrowserWindow }, labels) => {
      let items = Menu.getApplicationMenu()?.items ?? []
      for (const [i, label] of labels.entries()) {
        const item = items.find((candidate) => candidate.label === label)
        if (!item) return false
        if (i === labels.length - 1) {
          item.click(undefined, BrowserWindow.getAllWindows()[0], undefined)
          return true
        }
        items = item.submenu?.items ?? []
      }
      return false
    }, path)
    if (!clicked) throw new Error(`no menu item ${path.join(' › ')}`)
  }

  async pressAccelerator(accelerator: string): Promise<void> {
    const wanted = normalizeAccelerator(accelerator)
    const all = await this.app.evaluate(({ Menu }) => {
      const found: { path: string[]; accelerator: string | null }[] = []
      const walk = (items: Electron.MenuItem[], path: string[]) => {
        for (const item of items) {
          if (item.label) found.push({ path: [...path, item.label], accelerator: item.accelerator ? String(item.accelerator) : null })
          if (item.submenu) walk(item.submenu.items, item.label ? [...path, item.label] : path)
        }
      }
      walk(Menu.getApplicationMenu()?.items ?? [], [])
      return found
    })
    const item = all.find((entry) => entry.accelerator && normalizeAccelerator(entry.accelerator) === wanted)
    if (!item) throw new Error(`no menu item has the accelerator ${accelerator}`)
    await this.clickMenu(...item.path)
  }

  /**
   * Real File objects with real paths come from a file input set through the DevTools protocol (Electron's
   * webUtils.getPathForFile knows them); they are then dropped as the OS drop would hand them over.
   */
  async dropPaths(target: Locator, paths: string[]): Promise<void> {
    const page = await this.window()
    for (const path of paths) await stat(path)
    const input = await page.evaluateHandle(() => {
      const element = document.createElement('input')
      element.type = 'file'
      element.multiple = true
      element.style.display = 'none'
      document.body.append(element)
      return element
    })
    await input.asElement()!.setInputFiles(paths)
    const dataTransfer = await page.evaluateHandle((element) => {
      const transfer = new DataTransfer()
      for (const file of Array.from((element as HTMLInputElement).files ?? [])) transfer.items.add(file)
      ;(element as HTMLInputElement).remove()
      return transfer
    }, input)
    await target.dispatchEvent('dragenter', { dataTransfer })
    await target.dispatchEvent('dragover', { dataTransfer })
    await target.dispatchEvent('drop', { dataTransfer })
  }

  async hostPid(): Promise<number> {
    for (;;) {
      const pid = await this.app.evaluate(({ app }) => app.getAppMetrics().find((m) => m.type === 'Utility' && m.serviceName === 'Lance catalog host')?.pid)
      if (pid) return pid
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }

  async loadFromMain(url: string): Promise<void> {
    await this.app.evaluate(({ BrowserWindow }, target) => BrowserWindow.getAllWindows()[0]!.loadURL(target), url)
  }

  async closeWindow(): Promise<void> {
    // The app may quit (and its connection end) before this answers.
    await this.app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]?.close()).catch(() => undefined)
  }

  async quit(): Promise<void> {
    await this.app.evaluate(({ app }) => app.quit()).catch(() => undefined)
    await this.exit
  }

  exited(): Promise<void> {
    return this.exit
  }

  output(): string {
    return this.log.join('')
  }

  async dispose(): Promise<void> {
    await this.app.close().catch(() => undefined)
  }
}
