import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { lstat, mkdir, readdir, readlink, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ownerRuns, PROCESS_START, sweepTempFolders, TEMP_PREFIXES } from '../../../src/core/tempFolders'
import { bundleScript } from '../../helpers/bundle'
import { buildCatalog, makeTempDir, removeDir, snapshotTree } from '../../helpers/catalog'
import { until, untilZombie } from '../../helpers/processes'

/**
 * Temp folders name their owner (pid + start time), so a start after a kill -9 removes what the killed process
 * left — and only that: a live process's folders stay, and a folder whose pid now belongs to another process (a
 * reused pid: same id, another start time) goes. A manifest folder holds a symlink into the catalog: sweeping it
 * removes the link, never what it points to.
 */
const FIXTURE = join(__dirname, 'fixtures', 'tempOwner.ts')
const linux = process.platform === 'linux'
const KINDS = Object.values(TEMP_PREFIXES)

let dir: string
let tmp: string
let root: string
let owner: string
const children: ChildProcess[] = []

beforeAll(async () => {
  owner = await bundleScript(FIXTURE)
  dir = await makeTempDir('lcb-temp-owners-')
  tmp = join(dir, 'tmp')
  await mkdir(tmp)
  root = await buildCatalog(join(dir, 'catalog'), { namespaces: [['ns']], tables: [{ namespace: ['ns'], name: 't', rows: 50 }] })
})
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL')
  await removeDir(dir)
})

interface Owner {
  child: ChildProcess
  pid: number
  /** What its start's own sweep (manifest and export folders) removed. */
  swept: string[]
  exited: Promise<unknown>
}

/** Start the fixture with `tmp` as its temp folder; resolves once it has made its folders (one of each kind). */
function startOwner(): Promise<Owner> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [owner, root], { env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] })
    children.push(child)
    const exited = new Promise((done) => child.once('exit', done))
    let output = ''
    child.stdout!.setEncoding('utf8')
    child.stdout!.on('data', (text: string) => {
      output += text
      const ready = /^ready (\d+)$/m.exec(output)
      if (ready) resolve({ child, pid: Number(ready[1]), swept: JSON.parse(/^swept (.*)$/m.exec(output)![1]!) as string[], exited })
    })
    child.stderr!.on('data', (text: Buffer) => (output += text.toString()))
    child.once('error', reject)
    void exited.then(() => reject(new Error(`the owner ended early: ${output}`)))
  })
}

/** The folders in `tmp` named after process `pid`, by kind. */
async function foldersOf(pid: number): Promise<string[]> {
  return (await readdir(tmp)).filter((name) => KINDS.some((prefix) => name.startsWith(`${prefix}${pid}-`))).sort()
}

/** A process's start as /proc says it (clock ticks after boot), for names faked with its pid. */
function startTicks(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[19])
}

describe('temp folders after a kill -9', () => {
  it("the next start removes the killed process's folders; a live process's stay; the catalog is untouched", { timeout: 120_000 }, async () => {
    const first = await startOwner()
    const left = await foldersOf(first.pid)
    // Each kind, each named `<prefix><pid>-<start>-XXXXXX` (two manifest links: the catalog's and the result tables').
    expect([...new Set(left.map((name) => KINDS.find((prefix) => name.startsWith(prefix))))]).toEqual([...KINDS].sort())
    for (const name of left) expect(name).toMatch(/^lcb-[a-z]+-\d+-[tm]\d+-[A-Za-z0-9]{6}$/)
    const manifests = left.filter((name) => name.startsWith(TEMP_PREFIXES.manifest))
    expect(await Promise.all(manifests.map((name) => readlink(join(tmp, name, 'm.lance'))))).toContain(join(root, '__manifest'))
    const catalog = await snapshotTree(root)

    first.child.kill('SIGKILL')
    await first.exited
    expect(await foldersOf(first.pid)).toEqual(left) // a killed process cleans up nothing

    const second = await startOwner()
    // Its start's own sweep took the manifest, export, SQL and result-table folders; the import module takes uploads and pipes.
    const sweptAtStart = [TEMP_PREFIXES.manifest, TEMP_PREFIXES.exports, TEMP_PREFIXES.sql, TEMP_PREFIXES.results]
    expect(second.swept.map((path) => path.slice(tmp.length + 1)).sort()).toEqual(left.filter((n) => sweptAtStart.some((prefix) => n.startsWith(prefix))))
    await until(() => readdirSync(tmp).every((name) => !left.includes(name)))
    expect(await foldersOf(second.pid)).toHaveLength(left.length)
    // The link went, not the catalog's manifest it pointed to.
    expect(await snapshotTree(root)).toEqual(catalog)

    // Another sweep while the second runs: its folders are its own, kept.
    expect(await sweepTempFolders(KINDS, tmp)).toEqual([])
    expect(await foldersOf(second.pid)).toHaveLength(left.length)

    second.child.kill('SIGKILL')
    await second.exited
    expect((await sweepTempFolders(KINDS, tmp)).length).toBe(left.length)
    expect(await readdir(tmp)).toEqual([])
    expect(await snapshotTree(root)).toEqual(catalog)
  })

  it.runIf(linux)('a folder named with a live pid but another start time (the pid reused) is swept, the link in it removed, not followed', { timeout: 60_000 }, async () => {
    const live = await startOwner()
    try {
      const mine = await foldersOf(live.pid)
      const catalog = await snapshotTree(root)
      const stamp = `t${startTicks(live.pid)}`
      const reused = [`${TEMP_PREFIXES.manifest}${live.pid}-t1-Reused`, `${TEMP_PREFIXES.uploads}${live.pid}-m1000-Reused`]
      for (const name of reused) {
        await mkdir(join(tmp, name))
        await symlink(join(root, '__manifest'), join(tmp, name, 'm.lance'), 'dir')
      }
      // The same start written as wall-clock ms (the form used where /proc is missing) is the live owner's: kept.
      const btime = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))![1]) * 1000
      const sameStart = `${TEMP_PREFIXES.exports}${live.pid}-m${btime + startTicks(live.pid) * 10}-SameOn`
      await mkdir(join(tmp, sameStart))
      expect(mine.every((name) => name.includes(`-${stamp}-`))).toBe(true)

      const removed = await sweepTempFolders(KINDS, tmp)
      expect(removed.map((path) => path.slice(tmp.length + 1)).sort()).toEqual([...reused].sort())
      expect((await foldersOf(live.pid)).sort()).toEqual([...mine, sameStart].sort())
      expect(await snapshotTree(root)).toEqual(catalog)
      await expect(lstat(join(root, '__manifest'))).resolves.toBeTruthy()
    } finally {
      live.child.kill('SIGKILL')
      await live.exited
      await sweepTempFolders(KINDS, tmp)
    }
  })

  it("this process's own folders: kept under its start, swept under another (an earlier run with the same pid)", async () => {
    const own = `${TEMP_PREFIXES.native}${process.pid}-${PROCESS_START}-OwnOne`
    const earlier = `${TEMP_PREFIXES.native}${process.pid}-t0-Earlie`
    await mkdir(join(tmp, own))
    await mkdir(join(tmp, earlier))
    expect(await sweepTempFolders([TEMP_PREFIXES.native], tmp)).toEqual([join(tmp, earlier)])
    expect(await readdir(tmp)).toEqual([own])
    expect(await sweepTempFolders([TEMP_PREFIXES.native], tmp)).toEqual([])
    await removeDir(join(tmp, own))
  })

  it.runIf(linux)('an owner killed but never reaped (a zombie) no longer runs, though kill(pid, 0) still succeeds', async () => {
    // As in alive.test.ts: `sh` execs a `sleep` that never waits, so the killed child stays a zombie until the end.
    const parent = spawn('sh', ['-c', 'sleep 600 & echo $!; exec sleep 601'], { stdio: ['ignore', 'pipe', 'ignore'] })
    try {
      const pid = await new Promise<number>((resolve) => parent.stdout!.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))))
      await until(() => readFileSync(`/proc/${parent.pid}/cmdline`, 'utf8') === 'sleep\x00601\x00')
      const start = `t${startTicks(pid)}`
      expect(ownerRuns(pid, start)).toBe(true)
      expect(ownerRuns(pid, `t${startTicks(pid) + 1}`)).toBe(false)
      process.kill(pid, 'SIGKILL')
      await untilZombie(pid)
      expect(() => process.kill(pid, 0)).not.toThrow()
      expect(ownerRuns(pid, start)).toBe(false)
    } finally {
      parent.kill('SIGKILL')
    }
  })
})
