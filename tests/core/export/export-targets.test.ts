import { execFileSync } from 'node:child_process'
import { lstat, mkdir, readdir, readFile, readlink, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppErrorData, ConnectionInfo, ExportJobInfo, JobInfo, Result } from '../../../src/contract'
import { checkExportTarget, writeFileAtomically } from '../../../src/core/export/file'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

/** Every name under `dir` with its kind and size, links and pipes not followed (nor opened). */
async function listing(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { recursive: true })) {
    const info = await lstat(join(dir, entry))
    out.push(`${entry} ${info.isDirectory() ? 'dir' : info.isSymbolicLink() ? 'link' : info.isFIFO() ? 'fifo' : info.size}`)
  }
  return out.sort()
}

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

/**
 * Where an export may go: a target that cannot become the file (the root, a folder, a link to a folder, a device or
 * a pipe, a missing parent, a name too long) is refused in words when the export starts — no job, nothing written —
 * instead of the rename's EBUSY / EISDIR at the end of the job. An existing file, or a link, is replaced.
 */
describe('export targets', () => {
  let base: string
  let out: string
  let service: CatalogService
  let connection: ConnectionInfo

  beforeAll(async () => {
    base = await makeTempDir('lcb-export-targets-')
    out = join(base, 'out')
    await mkdir(out)
    const root = await buildCatalog(join(base, 'catalog'), { tables: [{ namespace: [], name: 'rows', rows: 100 }] })
    service = new CatalogService({ host: 'harness', version: '0', recents: new MemoryRecentsStore() })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  })
  afterAll(async () => {
    await service.closeAll()
    await removeDir(base)
  })

  const start = (path: string) => service.dispatch('export/start', { connectionId: connection.id, namespace: [], name: 'rows', view: {}, format: 'csv', path })
  const exportJobs = async () => value<JobInfo[]>(await service.dispatch('jobs/list', {})).filter((job) => job.kind === 'export').length

  /** Start an export to `path`: refused with `code` and a message matching `message`; no job; `watched` unchanged. */
  async function refused(path: string, code: AppErrorData['code'], message: RegExp, watched = out): Promise<void> {
    const before = await listing(watched)
    const jobs = await exportJobs()
    const result = await start(path)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.code).toBe(code)
      expect(result.error.message).toMatch(message)
      expect(result.error.hint).toBeTruthy()
    }
    expect(await exportJobs()).toBe(jobs)
    expect(await listing(watched)).toEqual(before)
  }

  async function exported(path: string): Promise<void> {
    const job = await service.exports.jobs.wait(value<ExportJobInfo>(await start(path)).id)
    expect(job.error).toBeNull()
    expect(job.state).toBe('done')
  }

  it('the file system root', async () => {
    await refused('/', 'invalid_input', /^Cannot export to \/: it is the root of the file system/)
    await refused('//', 'invalid_input', /root of the file system/)
  })

  it('an existing folder, a name ending in a separator, a symlink to a folder', async () => {
    const folder = join(out, 'folder')
    await mkdir(folder)
    await writeFile(join(folder, 'inside.txt'), 'kept')
    await refused(folder, 'invalid_input', /it is a folder$/)
    await refused(`${join(out, 'new')}/`, 'invalid_input', /names a folder, not a file/)
    const link = join(out, 'to-folder')
    await symlink(folder, link)
    await refused(link, 'invalid_input', /it is a link to a folder/)
    expect(await readFile(join(folder, 'inside.txt'), 'utf8')).toBe('kept')
  })

  it('a FIFO, and a device (checked without exporting: a root test must never replace /dev/null)', { timeout: 10_000 }, async () => {
    const fifo = join(out, 'pipe')
    execFileSync('mkfifo', [fifo])
    await refused(fifo, 'invalid_input', /not a regular file/)
    expect((await lstat(fifo)).isFIFO()).toBe(true)
    await expect(checkExportTarget('/dev/null')).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/^Cannot export to \/dev\/null: it is not a regular file/) })
  })

  it('a missing parent, a parent that is a file, a name longer than a file system takes', async () => {
    await refused(join(out, 'missing', 'rows.csv'), 'not_found', /the folder does not exist/)
    await writeFile(join(out, 'plain'), 'x')
    await refused(join(out, 'plain', 'rows.csv'), 'invalid_input', /it is not a folder|part of the path is a file/)
    await refused(join(out, `${'n'.repeat(252)}.csv`), 'invalid_input', /256 bytes long, more than the 255/)
  })

  it('a name just short enough: written (its temporary name is shortened to fit beside it)', async () => {
    const path = join(out, `${'l'.repeat(251)}.csv`)
    await exported(path)
    expect((await readFile(path, 'utf8')).split('\n')[0]).toMatch(/^id,/)
    expect((await readdir(out)).filter((name) => name.endsWith('.part'))).toEqual([])
  })

  it('an existing file is replaced; a symlink to a file is replaced by the file, the linked file left as it was', async () => {
    const file = join(out, 'old.csv')
    await writeFile(file, 'old')
    await exported(file)
    expect(await readFile(file, 'utf8')).not.toBe('old')
    const elsewhere = join(base, 'elsewhere.csv')
    await writeFile(elsewhere, 'untouched')
    const link = join(out, 'link.csv')
    await symlink(elsewhere, link)
    await exported(link)
    expect((await lstat(link)).isFile()).toBe(true)
    expect(await readFile(elsewhere, 'utf8')).toBe('untouched')
    const dangling = join(out, 'dangling.csv')
    await symlink(join(base, 'nowhere'), dangling)
    expect(await readlink(dangling)).toBe(join(base, 'nowhere'))
    await exported(dangling)
    expect((await lstat(dangling)).isFile()).toBe(true)
  })

  it('a target that becomes a folder while the job writes: the job fails in words, and leaves nothing', async () => {
    const target = join(out, 'raced.csv')
    const failure = writeFileAtomically(target, async (sink) => {
      await sink.write('a,b\n')
      await mkdir(target)
    })
    await expect(failure).rejects.toMatchObject({ code: 'invalid_input', message: `Cannot write into ${out}: the chosen name is a folder` })
    expect((await readdir(out)).filter((name) => name.startsWith('.raced'))).toEqual([])
  })
})
