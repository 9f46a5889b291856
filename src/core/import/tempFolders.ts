import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isAlive } from '../namespace/dir/journal'

/**
 * Temp folders named `<prefix><pid>-XXXXXX`: the pid tells a crashed (kill -9) run's folder from a live one, so
 * the next start can delete what a killed process could not.
 */
export function makeTempFolder(prefix: string, dir = tmpdir()): Promise<string> {
  return mkdtemp(join(dir, `${prefix}${process.pid}-`))
}

/** Delete the `<prefix><pid>-…` folders in `dir` whose process is gone; returns their paths. */
export async function removeStaleTempFolders(prefix: string, dir = tmpdir()): Promise<string[]> {
  const removed: string[] = []
  const pattern = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)-`)
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = pattern.exec(name)?.[1]
    if (!pid) continue
    // The folder's time: when its process was alive (a later process with the same id is another one).
    const since = await stat(join(dir, name)).then((info) => info.mtimeMs, () => undefined)
    if (isAlive(Number(pid), since)) continue
    await rm(join(dir, name), { recursive: true, force: true })
    removed.push(join(dir, name))
  }
  return removed
}
