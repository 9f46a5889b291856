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
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' } as MenuItemConstructorOptions] : []),
    {
      label: 'File',
      submenu: [
        item('Open Directory…', 'CmdOrCtrl+O', 'open-directory'),
        item('Connect to Server…', 'CmdOrCtrl+Shift+O', 'connect-server'),
        item('Import…', 'CmdOrCtrl+I', 'import'),
        item('New Query', 'CmdOrCtrl+Shift+N', 'new-query'),
        { type: 'separator' },
        isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [item('Refresh', 'F5', 'refresh'), { type: 'separator' }, { role: 'toggleDevTools' }, { role: 'togglefullscreen' }],
    },
    { role: 'windowMenu' },
    { label: 'Help', submenu: [{ label: 'Connect an Assistant…', click: () => send('connect-assistant') }] },
  ]
  return Menu.buildFromTemplate(template)
}
