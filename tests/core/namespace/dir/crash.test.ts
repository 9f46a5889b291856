import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Table, tableToIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeStalePipes } from '../../../../src/core/import/native/polars'
import { removeStaleUploads } from '../../../../src/core/import/uploads'
import { duckdbCopy } from '../../../fixtures/import/duckdb'
import { DirNamespaceClient } from '../../../../src/core/namespace/dir'
import type { TableId } from '../../../../src/core/namespace/path'
import { numbersTable } from './fixtures/data'
import { lanceView, stagedIn, unlistedData } from './fixtures/lanceView'
import { makeTempDir, removeDir, sampleTable, seededRandom } from '../../../helpers/catalog'
import { bundleScript } from '../../../helpers/bundle'
import { untilZombie } from '../../../helpers/processes'

/**
 * kill -9 at random points of imports (create, append, overwrite — at the root and in a child namespace, in turn)
 * and of renames, then reopen the catalog through our client (which recovers) and check: every listed table opens
 * and is complete or absent, row counts are exactly before or after, nothing staged is visible — to us, nor to
 * lancedb itself (its `tableNames` and `listNamespaces`, in every namespace) — no table data is left that no
 * reader lists, and no journal or staged upload is left.
 */
const ROWS = 400_000
const FIXTURE = join(__dirname, 'fixtures', 'writer.ts')
const random = seededRandom(11)

let dir: string
let file: string
let tmp: string
/** The writer, bundled once: ~45 writers start here, and tsx's loader was most of this file's time. */
let writer: string

interface Run {
  killed: boolean
  code: number | null
  output: string
}

/** Run the writer; SIGKILL it once it has printed `killAfter` step lines (or let it finish). */
function runWriter(args: string[], killAfter: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [writer, ...args], {
      cwd: join(__dirname, '../../../..'),
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let steps = 0
    let killed = false
    let output = ''
    child.stdout.setEncoding('utf8')
    child.stdout.on('data', (text: string) => {
      output += text
      steps += (text.match(/^step /gm) ?? []).length
      if (!killed && steps >= killAfter) {
        killed = true
        child.kill('SIGKILL')
      }
    })
    child.stderr.on('data', (text: Buffer) => (output += text.toString()))
    child.on('error', reject)
    child.on('exit', (code) => resolve({ killed, code, output }))
  })
}

/**
 * The writer under a parent that does not wait for it yet (`sh` blocked reading its stdin): once killed it stays a
 * zombie until `release()` lets that parent `wait` — what a kill -9'd harness is for good when its launcher is gone
 * and PID 1 does not reap (as in the containers this runs in). `kill(pid, 0)` still succeeds on a zombie.
 */
function runOrphanWriter(args: string[], killAfter: number): Promise<{ pid: number; release(): void }> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, writer, ...args]
    const parent: ChildProcess = spawn('sh', ['-c', '"$@" & echo "pid $!"; read line; wait', 'sh', ...command], {
      cwd: join(__dirname, '../../../..'),
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['pipe', 'pipe', 'ignore'],
    })
    let output = ''
    let pid = 0
    // The parent reaps the zombie and ends: none is left behind for a PID 1 that would never reap it.
    const release = () => void parent.stdin!.end('\n')
    parent.stdout!.setEncoding('utf8')
    parent.stdout!.on('data', (text: string) => {
      output += text
      pid ||= Number(/^pid (\d+)$/m.exec(output)?.[1] ?? 0)
      if (pid && (output.match(/^step /gm) ?? []).length >= killAfter) {
        process.kill(pid, 'SIGKILL')
        parent.stdout!.removeAllListeners('data')
        resolve({ pid, release })
      }
    })
    parent.on('error', reject)
    parent.on('exit', () => reject(new Error(`the writer's parent ended early: ${output}`)))
  })
}

/** Reopen (recovering), then check what every reader must see. Returns the row counts of the tables listed in `namespace`. */
async function reopenAndCheck(root: string, namespace: string[] = []): Promise<{ counts: Map<string, number>; recovered: string[] }> {
  const client = await DirNamespaceClient.open(root)
  try {
    const counts = new Map<string, number>()
    for (const name of (await client.listTables(namespace)).items) counts.set(name, (await client.describeTable({ namespace, name })).rowCount)
    const view = await lanceView(root)
    expect(stagedIn(view), JSON.stringify(view)).toEqual([])
    // lancedb lists in this namespace exactly what we list.
    const here = view.tables.map((path) => path.split('/')).filter((parts) => parts.length === namespace.length + 1 && parts.slice(0, -1).join('/') === namespace.join('/'))
    expect(here.map((parts) => parts[parts.length - 1]!).sort()).toEqual([...counts.keys()].sort())
    expect((await readdir(root)).filter((n) => n.startsWith('.lcb-'))).toEqual([])
    expect(await unlistedData(root)).toEqual([])
    await removeStaleUploads(tmp)
    await removeStalePipes(tmp)
    expect((await readdir(tmp)).filter((n) => n.startsWith('lcb-uploads-') || n.startsWith('lcb-native-'))).toEqual([])
    return { counts, recovered: client.recovered }
  } finally {
    await client.close()
  }
}

async function seed(root: string, id: TableId, rows: number): Promise<void> {
  const client = await DirNamespaceClient.open(root, { create: true })
  if (id.namespace.length > 0) await client.createNamespace(id.namespace).catch(() => undefined)
  await client.createTable(id, sampleTable(rows)).catch(() => undefined)
  await client.close()
}

beforeAll(async () => {
  writer = await bundleScript(FIXTURE)
  dir = await makeTempDir('lcb-crash-')
  tmp = join(dir, 'tmp')
  await mkdir(tmp)
  file = join(dir, 'data.arrow')
  // 10k-row batches, as most writers make them: create and overwrite hand them to Lance undecoded (pass-through).
  const whole = numbersTable(ROWS).batches[0]!
  const batches = Array.from({ length: ROWS / 10_000 }, (_, i) => whole.slice(i * 10_000, (i + 1) * 10_000))
  await writeFile(file, tableToIPC(new Table(batches), 'file'))
})
afterAll(async () => {
  await removeDir(dir)
})

/** A complete import prints ~85 step lines (two per 10k-row chunk, plus phases): kill anywhere in it, or after. */
const killPoint = () => 1 + Math.floor(random() * 90)

const ITERATIONS = Number(process.env.CRASH_ITERATIONS ?? 4)
/** Iterations alternate between the root (listed by directory) and a child namespace (listed by `__manifest`). */
const namespaceOf = (i: number): string[] => (i % 2 === 0 ? [] : ['landing'])
const pathOf = (namespace: string[], name: string) => [...namespace, name].join('/')

describe('kill -9 during an import', () => {
  it('create: the table is complete or absent', async () => {
    const root = join(dir, 'create')
    await seed(root, { namespace: [], name: 'other' }, 10)
    await seed(root, { namespace: ['landing'], name: 'other' }, 10)
    let recoveries = 0
    for (let i = 0; i < ITERATIONS; i++) {
      const namespace = namespaceOf(i)
      const run = await runWriter(['import', root, file, 'create', pathOf(namespace, `t${i}`), '--upload'], killPoint())
      if (!run.killed) expect(run.code, run.output).toBe(0)
      const { counts, recovered } = await reopenAndCheck(root, namespace)
      recoveries += recovered.length
      expect(counts.get('other')).toBe(10)
      if (counts.has(`t${i}`)) expect(counts.get(`t${i}`)).toBe(ROWS)
      else expect(run.killed).toBe(true)
    }
    expect(recoveries).toBeGreaterThan(0) // the kills did land mid-import
  }, 180_000)

  it('create: a killed writer that is a zombie (its parent never reaps it) is gone too', async () => {
    // A zombie exists on every POSIX system, but only Linux's /proc tells it from a live process here.
    if (process.platform !== 'linux') return
    const root = join(dir, 'zombie')
    await seed(root, { namespace: ['landing'], name: 'other' }, 10)
    // Killed well inside the import (~85 steps): its staging table is there, half-written.
    const writer = await runOrphanWriter(['import', root, file, 'create', 'landing/crashtest'], 20)
    try {
      await untilZombie(writer.pid)
      expect(stagedIn(await lanceView(root))).toHaveLength(1) // what the crash left, before recovery
      const { counts, recovered } = await reopenAndCheck(root, ['landing'])
      expect([...counts.keys()]).toEqual(['other'])
      expect(recovered.join('\n')).toMatch(/Removed the unfinished staging table landing\/\.lcb-staging-\d+-\w+-crashtest/)
    } finally {
      writer.release()
    }
  }, 180_000)

  it('append: the table has exactly its rows before or after', async () => {
    const root = join(dir, 'append')
    await seed(root, { namespace: [], name: 'other' }, 1)
    // The bases must have the file's schema: import them once, completely.
    for (const namespace of [[], ['landing']]) {
      if (namespace.length > 0) await seed(root, { namespace, name: 'other' }, 1)
      expect((await runWriter(['import', root, file, 'create', pathOf(namespace, 'base')], Infinity)).code).toBe(0)
    }
    const rows = new Map([
      ['', ROWS],
      ['landing', ROWS],
    ])
    for (let i = 0; i < ITERATIONS; i++) {
      const namespace = namespaceOf(i)
      const run = await runWriter(['import', root, file, 'append', pathOf(namespace, 'base')], killPoint())
      const { counts, recovered } = await reopenAndCheck(root, namespace)
      const before = rows.get(namespace.join('/'))!
      const now = counts.get('base')
      expect([before, before + ROWS], `${run.output}\n${recovered.join('\n')}`).toContain(now)
      if (!run.killed) expect(now).toBe(before + ROWS)
      rows.set(namespace.join('/'), now!)
    }
  }, 180_000)

  it('overwrite: the table holds the old rows or all the new ones, never staging', async () => {
    const root = join(dir, 'overwrite')
    await seed(root, { namespace: [], name: 'target' }, 1000)
    await seed(root, { namespace: ['landing'], name: 'target' }, 1000)
    const rows = new Map([
      ['', 1000],
      ['landing', 1000],
    ])
    for (let i = 0; i < ITERATIONS; i++) {
      const namespace = namespaceOf(i)
      const run = await runWriter(['import', root, file, 'overwrite', pathOf(namespace, 'target')], killPoint())
      const { counts } = await reopenAndCheck(root, namespace)
      const now = counts.get('target')
      expect([rows.get(namespace.join('/')), ROWS], run.output).toContain(now)
      if (!run.killed) expect(now).toBe(ROWS)
      rows.set(namespace.join('/'), now!)
    }
    expect(existsSync(join(root, '.lcb-journal'))).toBe(false)
  }, 180_000)
})

/**
 * CSV and Parquet go through polars (native threads sinking Arrow IPC into a named pipe in the temp folder) into the
 * same staged writer: a kill -9 there must leave the catalog as before, and its pipe folder is swept at the next start.
 */
describe('kill -9 during a native (polars) import', () => {
  for (const format of ['csv', 'parquet'] as const) {
    it(`${format}: the table is complete or absent, the pipe folder is swept`, async () => {
      const root = join(dir, `native-${format}`)
      const source = join(dir, `numbers.${format}`)
      await duckdbCopy(`SELECT i::BIGINT AS id, i / 7 AS value FROM range(${ROWS}) t(i)`, source, format)
      await seed(root, { namespace: [], name: 'other' }, 10)
      await seed(root, { namespace: ['landing'], name: 'other' }, 10)
      let recoveries = 0
      let nativeRuns = 0
      let pipesLeft = 0
      for (let i = 0; i < ITERATIONS; i++) {
        const namespace = namespaceOf(i)
        // Killed inside the import (~85 steps: two per 10k-row commit), while polars is still writing into its pipe.
        const run = await runWriter(['import', root, source, 'create', pathOf(namespace, `t${i}`)], 2 + Math.floor(random() * 60))
        if (!run.killed) expect(run.code, run.output).toBe(0)
        if (/^step .* native [1-9]\d*$/m.test(run.output)) nativeRuns++
        pipesLeft += (await readdir(tmp)).filter((n) => n.startsWith('lcb-native-')).length
        const { counts, recovered } = await reopenAndCheck(root, namespace)
        recoveries += recovered.length
        expect(counts.get('other')).toBe(10)
        if (counts.has(`t${i}`)) expect(counts.get(`t${i}`)).toBe(ROWS)
        else expect(run.killed).toBe(true)
      }
      expect(nativeRuns).toBeGreaterThan(0) // polars read the file, not the JS reader
      expect(pipesLeft).toBeGreaterThan(0) // a kill left a pipe folder, and the sweep removed it
      expect(recoveries).toBeGreaterThan(0) // the kills did land mid-import
    }, 180_000)
  }
})

describe('kill -9 during renames', () => {
  it('leaves the table listed exactly once, with all its rows', async () => {
    const root = join(dir, 'rename')
    const client = await DirNamespaceClient.open(root, { create: true })
    for (const ns of [['ns'], ['ns', 'deep'], ['other']]) await client.createNamespace(ns)
    await client.createTable({ namespace: [], name: 'moving' }, sampleTable(1000))
    await client.close()
    for (let i = 0; i < Number(process.env.CRASH_ITERATIONS ?? 20); i++) {
      await runWriter(['rename', root, '40'], 1 + Math.floor(random() * 30))
      const reopened = await DirNamespaceClient.open(root)
      // lancedb's own view, in every namespace: the table exactly once, and nothing else.
      const view = await lanceView(root)
      expect(view.tables, `iteration ${i}`).toHaveLength(1)
      expect(stagedIn(view)).toEqual([])
      const [namespace, name] = ((path) => [path.slice(0, -1), path[path.length - 1]!] as const)(view.tables[0]!.split('/'))
      expect((await reopened.describeTable({ namespace, name })).rowCount).toBe(1000)
      await reopened.close()
      expect((await readdir(root)).filter((n) => n.startsWith('.lcb-'))).toEqual([])
      expect(await unlistedData(root)).toEqual([])
    }
  }, 180_000)
})
