import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import { AtomicFile } from '../core/atomicFile'

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
  private readonly path: string
  private readonly file: AtomicFile

  constructor(private readonly userData: string) {
    this.path = join(userData, 'window-state.json')
    this.file = new AtomicFile(this.path)
  }

  async read(): Promise<WindowBounds | undefined> {
    if (this.cache !== null) return this.cache
    this.cache = (await readBounds(this.path, (json) => json)) ?? (await readBounds(join(this.userData, 'settings.json'), (json) => (json as { window?: unknown })?.window))
    return this.cache
  }

  write(bounds: WindowBounds): Promise<void> {
    this.cache = bounds
    return this.file.write(JSON.stringify(bounds))
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
