import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { z } from 'zod'

const boundsSchema = z.object({
  width: z.number().int().min(400),
  height: z.number().int().min(300),
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  maximized: z.boolean().optional(),
})
export type WindowBounds = z.infer<typeof boundsSchema>

/**
 * The window's size and place, main's own file (`window-state.json` in userData). The settings file belongs to the
 * catalog host process (recent folders, the Read-only switch); two processes writing one file would lose each
 * other's changes. Until this file exists, the bounds an earlier version kept in `settings.json` are read.
 */
export class WindowState {
  private cache: WindowBounds | undefined | null = null
  private writing: Promise<void> = Promise.resolve()
  private readonly path: string

  constructor(private readonly userData: string) {
    this.path = join(userData, 'window-state.json')
  }

  async read(): Promise<WindowBounds | undefined> {
    if (this.cache !== null) return this.cache
    this.cache = (await readBounds(this.path, (json) => json)) ?? (await readBounds(join(this.userData, 'settings.json'), (json) => (json as { window?: unknown })?.window))
    return this.cache
  }

  write(bounds: WindowBounds): Promise<void> {
    this.cache = bounds
    // One write at a time, in order, each whole (temp file + rename): a crash never leaves half a file.
    this.writing = this.writing.then(async () => {
      await mkdir(dirname(this.path), { recursive: true })
      const tmp = `${this.path}.${process.pid}.tmp`
      await writeFile(tmp, JSON.stringify(bounds))
      await rename(tmp, this.path)
    })
    return this.writing
  }
}

async function readBounds(path: string, pick: (json: unknown) => unknown): Promise<WindowBounds | undefined> {
  try {
    const parsed = boundsSchema.safeParse(pick(JSON.parse(await readFile(path, 'utf8'))))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}
