import { mkdir, rename, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'

/**
 * One small file the app rewrites whole (settings, saved connections, secrets, the window's bounds): each write goes
 * to a temp file renamed over the old one, so a crash (kill -9) leaves the old file or the new, never half of one;
 * writes run one at a time in the order asked, so an older snapshot never lands after a newer one (two writes at
 * once would also share the temp file's name). A write that fails (a full disk) fails its own caller only: the
 * next write still runs.
 */
export class AtomicFile {
  private writing: Promise<void> = Promise.resolve()

  constructor(
    readonly path: string,
    private readonly mode?: number,
  ) {}

  write(text: string): Promise<void> {
    const run = this.writing
      .catch(() => undefined)
      .then(async () => {
        await mkdir(dirname(this.path), { recursive: true })
        const tmp = `${this.path}.${process.pid}.tmp`
        await writeFile(tmp, text, this.mode === undefined ? undefined : { mode: this.mode })
        await rename(tmp, this.path)
      })
    this.writing = run
    return run
  }
}
