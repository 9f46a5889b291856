/** A place to import into: a connection and a namespace path in it. */
export interface ImportTarget {
  connectionId: string
  namespace: string[]
}

/** A file waiting for its import sheet: a path (Electron) or the File to upload (harness). */
export interface PendingFile {
  key: string
  fileName: string
  bytes: number
  path: string | null
  file: File | null
  target: ImportTarget | null
}

/**
 * Split what was dropped into files (to import) and folders (to open as catalogs). A real drop
 * tells them apart (`webkitGetAsEntry`); a synthetic one has no entries, and a name without an
 * extension is then taken for a folder.
 */
export function splitDropped(transfer: DataTransfer): { files: File[]; folders: File[] } {
  const files: File[] = []
  const folders: File[] = []
  const items = [...transfer.items].filter((item) => item.kind === 'file')
  if (items.length > 0) {
    for (const item of items) {
      const file = item.getAsFile()
      if (!file) continue
      const entry = typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null
      const isFolder = entry ? entry.isDirectory : !/.\.[A-Za-z0-9]{1,12}$/.test(file.name)
      ;(isFolder ? folders : files).push(file)
    }
  } else {
    for (const file of transfer.files) (/.\.[A-Za-z0-9]{1,12}$/.test(file.name) ? files : folders).push(file)
  }
  return { files, folders }
}

let counter = 0
export function pendingKey(): string {
  counter += 1
  return `p${counter}`
}

/** `a/b` → `['a','b']`; blanks and stray slashes are dropped. */
export function parseNamespace(text: string): string[] {
  return text
    .split('/')
    .map((part) => part.trim())
    .filter((part) => part !== '')
}
