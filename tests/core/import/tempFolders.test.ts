import { spawnSync } from 'node:child_process'
import { mkdir, readdir, utimes } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeStalePipes } from '../../../src/core/import/native/polars'
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
})
