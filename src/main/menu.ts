import { Menu, type MenuItemConstructorOptions } from 'electron'
import type { Events } from '../contract'

type Command = Events['app/command']['command']

/** The application menu. Commands are carried out by the renderer, which owns the UI state. */
export function buildMenu(send: (command: Command) => void, isMac: boolean): Menu {
  const item = (label: string, accelerator: string, command: Command): MenuItemConstructorOptions => ({
    label,
    accelerator,
    click: () => send(command),
  })
  // The tab keys are the window's own (features/workbench/useTabKeys.ts: they work in the browser too): shown here,
  // not registered, so one key press is handled once.
  const tabItem = (label: string, accelerator: string, command: Command): MenuItemConstructorOptions => ({ ...item(label, accelerator, command), registerAccelerator: false })
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    {
      label: 'File',
      submenu: [
        item('Open Directory…', 'CmdOrCtrl+O', 'open-directory'),
        item('Connect to Server…', 'CmdOrCtrl+Shift+O', 'connect-server'),
        item('Import…', 'CmdOrCtrl+I', 'import'),
        { type: 'separator' },
        // Ctrl/Cmd+W closes a tab; the window closes with Shift.
        isMac ? { role: 'close', accelerator: 'Cmd+Shift+W' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        item('Refresh', 'F5', 'refresh'),
        { type: 'separator' },
        tabItem('Next Tab', 'Ctrl+Tab', 'next-tab'),
        tabItem('Previous Tab', 'Ctrl+Shift+Tab', 'previous-tab'),
        tabItem('Split Right', 'CmdOrCtrl+\\', 'split-right'),
        tabItem('Close Tab', 'CmdOrCtrl+W', 'close-tab'),
        tabItem('Reopen Closed Tab', 'CmdOrCtrl+Shift+T', 'reopen-tab'),
        { type: 'separator' },
        { role: 'toggleDevTools' },
        { role: 'togglefullscreen' },
      ],
    },
    // The window menu without its Close (Ctrl/Cmd+W there would close the window, not the tab).
    { label: 'Window', submenu: isMac ? [{ role: 'minimize' }, { role: 'zoom' }, { type: 'separator' }, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close', accelerator: 'Ctrl+Shift+W' }] },
  ]
  return Menu.buildFromTemplate(template)
}
