import { expect, type Locator, type Page } from '@playwright/test'

export interface DroppedFile {
  name: string
  /** The file's bytes (a string is taken as UTF-8 text). */
  bytes: Uint8Array | string
}

/**
 * A real drop of files (bytes built in the page) on `target`: dragenter, dragover, drop — as the browser's drag and
 * drop does. `expectDropTarget`: check that the target shows itself as a drop target before the drop.
 */
export async function dropFiles(page: Page, target: Locator, files: DroppedFile[], { expectDropTarget = false } = {}): Promise<void> {
  const payload = files.map((f) => ({ name: f.name, data: Buffer.from(f.bytes).toString('base64') }))
  const dataTransfer = await page.evaluateHandle((list) => {
    const transfer = new DataTransfer()
    for (const { name, data } of list) {
      const binary = atob(data)
      const bytes = new Uint8Array(binary.length)
      for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
      transfer.items.add(new File([bytes], name, { type: 'application/octet-stream' }))
    }
    return transfer
  }, payload)
  await target.dispatchEvent('dragenter', { dataTransfer })
  await target.dispatchEvent('dragover', { dataTransfer })
  if (expectDropTarget) await expect(target).toHaveClass(/drop-target/)
  await target.dispatchEvent('drop', { dataTransfer })
}
