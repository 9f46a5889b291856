import type { Locator, Page } from '@playwright/test'

/** Drop files (name → text content) on `target` as the browser's drag and drop does (dragenter, dragover, drop). */
export async function dropFiles(page: Page, target: Locator, files: Record<string, string>): Promise<void> {
  const transfer = await page.evaluateHandle((entries) => {
    const t = new DataTransfer()
    for (const [name, text] of entries) t.items.add(new File([text], name, { type: 'application/octet-stream' }))
    return t
  }, Object.entries(files))
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer: transfer })
}
