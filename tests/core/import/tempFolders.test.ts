import { spawn, spawnSync } from 'node:child_process'
import { mkdir, readdir, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeStalePipes } from '../../../src/core/import/native/polars'
import { makeTempFolder, PROCESS_START, processElapsedSeconds, removeStaleTempFolders } from '../../../src/core/tempFolders'
import { removeStaleUploads } from '../../../src/core/import/uploads'
import { makeTempDir, removeDir } from '../../helpers/catalog'

let dir: string
beforeAll(async () => {
  dir = await makeTempDir('lcb-temp-folders-')
})
afterAll(async () => {
  await removeDir(dir)
})

/** The id of a process that has ended (spawnSync reaps it). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''])
  return child.pid!
}

describe('temp folders left by a killed run', () => {
  it('the native pipe folders of dead processes are swept at start; live ones and other folders stay', async () => {
    const dead = deadPid()
    const names = [`lcb-native-${dead}-abc123`, `lcb-native-${process.pid}-def456`, 'lcb-native-Xyz789', `lcb-uploads-${dead}-ghi012`, 'unrelated']
    for (const name of names) await mkdir(join(dir, name))
    await mkdir(join(dir, names[0]!, 'batches.arrow'))
    expect(await removeStalePipes(dir)).toEqual([join(dir, names[0]!)])
    expect((await readdir(dir)).sort()).toEqual(names.slice(1).sort())
    // The uploads' sweep is the same rule with its own prefix.
    expect(await removeStaleUploads(dir)).toEqual([join(dir, names[3]!)])
  })

  it('a folder older than the live process holding its id belongs to an earlier process, and is swept', async () => {
    const name = `lcb-native-${process.pid}-old000`
    await mkdir(join(dir, name))
    const longAgo = new Date(Date.now() - 24 * 3600_000)
    await utimes(join(dir, name), longAgo, longAgo)
    expect(await removeStalePipes(dir)).toEqual([join(dir, name)])
  })

  it('new folders name their owner by pid and start time, and are swept only when that owner is gone', async () => {
    const made = await makeTempFolder('lcb-uploads-', dir)
    expect(made.slice(dir.length + 1)).toMatch(new RegExp(`^lcb-uploads-${process.pid}-${PROCESS_START}-[A-Za-z0-9]{6}$`))
    if (process.platform === 'linux') expect(PROCESS_START).toMatch(/^t\d+$/)
    const dead = join(dir, `lcb-uploads-${deadPid()}-${PROCESS_START}-dead00`)
    await mkdir(dead)
    expect(await removeStaleUploads(dir)).toEqual([dead])
    expect(await removeStaleTempFolders('lcb-uploads-', dir)).toEqual([])
    await removeDir(made)
  })

  it.runIf(process.platform !== 'win32')("the portable fallback: a process's age from ps -o etime=, to the second", async () => {
    const child = spawn('sleep', ['30'])
    try {
      await new Promise((resolve) => child.once('spawn', resolve))
      const age = processElapsedSeconds(child.pid!)
      expect(age).not.toBeNull()
      expect(age!).toBeGreaterThanOrEqual(0)
      // Ours is older than the child (the test process ran before it): a reading that mixed the two up fails.
      expect(processElapsedSeconds(process.pid)!).toBeGreaterThanOrEqual(age!)
      expect(Math.abs(processElapsedSeconds(process.pid)! - process.uptime())).toBeLessThanOrEqual(2)
      expect(processElapsedSeconds(deadPid())).toBeNull()
    } finally {
      child.kill('SIGKILL')
    }
  })
})
