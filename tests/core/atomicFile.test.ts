import { mkdir, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AtomicFile } from '../../src/core/atomicFile'

describe('AtomicFile', () => {
  it('writes asked at once land one by one, in order: the last asked is the file, no temp file is left', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lcb-atomic-'))
    const file = new AtomicFile(join(dir, 'nested', 'state.json'))
    // Big enough that two writes to one temp file at once would interleave.
    const texts = Array.from({ length: 20 }, (_, i) => JSON.stringify({ i, pad: String(i).repeat(200_000) }))
    await Promise.all(texts.map((t) => file.write(t)))
    expect(JSON.parse(await readFile(file.path, 'utf8')).i).toBe(19)
    expect(await readdir(join(dir, 'nested'))).toEqual(['state.json'])
  })

  it('a write that fails fails its caller only: the next one lands', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lcb-atomic-'))
    const file = new AtomicFile(join(dir, 'state.json'))
    await file.write('one')
    // A folder where the temp file goes: the write fails as a full disk would fail it.
    const blocker = `${file.path}.${process.pid}.tmp`
    await mkdir(blocker)
    const failed = file.write('two')
    const after = file.write('three')
    await expect(failed).rejects.toThrow()
    await expect(after).rejects.toThrow()
    expect(await readFile(file.path, 'utf8')).toBe('one')
    await rm(blocker, { recursive: true })
    await file.write('four')
    expect(await readFile(file.path, 'utf8')).toBe('four')
  })

  it('keeps the mode it is given (secrets and connections: the owner only)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lcb-atomic-'))
    const file = new AtomicFile(join(dir, 'secrets.json'), 0o600)
    await file.write('{}')
    expect((await stat(file.path)).mode & 0o777).toBe(0o600)
  })
})
