import { open, readFile, rm } from 'node:fs/promises'
import { setTimeout as delay } from 'node:timers/promises'

/**
 * Run `work` while holding an exclusive lock file (created with O_EXCL, holding our pid), so several
 * server processes on one catalog write one at a time: Lance does not stop two processes from both
 * creating a name (tested on 0.31.0: both creates succeed). A lock whose holder is no longer running
 * (a crash) is taken over.
 */
export async function withFileLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  let wait = 2
  for (;;) {
    try {
      const handle = await open(path, 'wx')
      try {
        await handle.writeFile(`${process.pid}\n`)
      } finally {
        await handle.close()
      }
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      if (await isStale(path)) {
        await rm(path, { force: true })
        continue
      }
      await delay(wait)
      wait = Math.min(50, wait * 2)
    }
  }
  try {
    return await work()
  } finally {
    await rm(path, { force: true })
  }
}

async function isStale(path: string): Promise<boolean> {
  let pid: number
  try {
    pid = Number((await readFile(path, 'utf8')).trim())
  } catch {
    return false // gone already (released) or being written: try again
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}
