import { dialog, type BrowserWindow } from 'electron'

export interface SaveFileOptions {
  defaultName?: string
  filters?: { name: string; extensions: string[] }[]
}

/**
 * `dialogs/saveFile`: the native save dialog (attached to the app window when there is one).
 * Resolves with the chosen path, or null when the user cancels.
 */
export function createSaveFile(window: () => BrowserWindow | null): (options: SaveFileOptions) => Promise<string | null> {
  return async ({ defaultName, filters }) => {
    const options = {
      title: 'Export',
      ...(defaultName ? { defaultPath: defaultName } : {}),
      filters: [...(filters ?? []), { name: 'All files', extensions: ['*'] }],
      properties: ['createDirectory' as const, 'showOverwriteConfirmation' as const],
    }
    const owner = window()
    const picked = owner ? await dialog.showSaveDialog(owner, options) : await dialog.showSaveDialog(options)
    return picked.canceled || !picked.filePath ? null : picked.filePath
  }
}
