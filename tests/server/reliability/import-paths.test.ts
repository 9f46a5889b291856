/**
 * An import whose path is a FIFO or a device is refused up front (stat before open, and a non-blocking
 * open), instead of blocking a thread-pool thread forever.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSource } from '../../../src/core/import'
import { sniffPath } from '../../../src/core/import/open'
import { tempDir } from '../support'

let dir: { dir: string; cleanup: () => Promise<void> }
beforeAll(async () => {
  dir = await tempDir('lcb-import-paths-')
})
afterAll(async () => {
  await dir?.cleanup()
})

describe('import refuses special files before reading them', () => {
  it('a FIFO with no writer: refused (invalid_input), not a hang', async () => {
    const fifo = join(dir.dir, 'rows.arrow')
    execFileSync('mkfifo', [fifo])
    await expect(sniffPath(fifo)).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/named pipe/) })
    await expect(openSource(fifo)).rejects.toMatchObject({ code: 'invalid_input' })
  })

  it.runIf(existsSync('/dev/zero'))('a device (/dev/zero): refused (invalid_input)', async () => {
    await expect(sniffPath('/dev/zero')).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/device/) })
  })

  it('a folder is still "a folder, not a file"', async () => {
    await expect(sniffPath(dir.dir)).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/folder/) })
  })
})
