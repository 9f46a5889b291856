import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { connectNamespace as lanceConnect } from '@lancedb/lancedb'
import { Table, tableToIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeStaleUploads } from '../../../src/core/import/uploads'
import { DirNamespaceClient } from '../../../src/core/namespace/dir'
import { numbersTable } from './data'
import { makeTempDir, removeDir, sampleTable, seededRandom } from '../../helpers/catalog'

/**
 * kill -9 at random points of imports (create, append, overwrite) and of renames, then reopen the catalog
 * through our client (which recovers) and check: every listed table opens and is complete or absent, row counts
 * are exactly before or after, nothing staged is visible (to us or to lancedb), no journal or staged upload left.
 */
const ROWS = 400_000
const FIXTURE = join(__dirname, 'fixtures', 'writer.ts')
const random = seededRandom(11)

let dir: string
let file: string
let tmp: string

/** Run the writer; SIGKILL it once it has printed `killAfter` step lines (or let it finish). */
function runWriter(args: string[], killAfter: number): Promise<{ killed: boolean; code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, ...args], {
      cwd: join(__dirname, '../../..'),
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

async function lanceNames(root: string, namespace: string[]): Promise<string[]> {
  const db = await lanceConnect('dir', { root })
  try {
    return await db.tableNames(namespace)
  } finally {
    db.close()
  }
}

/** Reopen (recovering), then check what every reader must see. Returns the row counts of the listed tables. */
async function reopenAndCheck(root: string): Promise<{ counts: Map<string, number>; recovered: string[] }> {
  const client = await DirNamespaceClient.open(root)
  try {
    const counts = new Map<string, number>()
    for (const name of (await client.listTables([])).items) counts.set(name, (await client.describeTable({ namespace: [], name })).rowCount)
    expect((await lanceNames(root, [])).filter((n) => n.startsWith('.lcb-'))).toEqual([])
    expect((await readdir(root)).filter((n) => n.startsWith('.lcb-'))).toEqual([])
    await removeStaleUploads(tmp)
    expect((await readdir(tmp)).filter((n) => n.startsWith('lcb-uploads-'))).toEqual([])
    return { counts, recovered: client.recovered }
  } finally {
    await client.close()
  }
}

async function seed(root: string, name: string, rows: number): Promise<void> {
  const client = await DirNamespaceClient.open(root, { create: true })
  await client.createTable({ namespace: [], name }, sampleTable(rows)).catch(() => undefined)
  await client.close()
}

beforeAll(async () => {
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

describe('kill -9 during an import', () => {
  it('create: the table is complete or absent', async () => {
    const root = join(dir, 'create')
    await seed(root, 'other', 10)
    let recoveries = 0
    for (let i = 0; i < ITERATIONS; i++) {
      const run = await runWriter(['import', root, file, 'create', `t${i}`, '--upload'], killPoint())
      if (!run.killed) expect(run.code, run.output).toBe(0)
      const { counts, recovered } = await reopenAndCheck(root)
      recoveries += recovered.length
      expect(counts.get('other')).toBe(10)
      if (counts.has(`t${i}`)) expect(counts.get(`t${i}`)).toBe(ROWS)
      else expect(run.killed).toBe(true)
    }
    expect(recoveries).toBeGreaterThan(0) // the kills did land mid-import
  }, 180_000)

  it('append: the table has exactly its rows before or after', async () => {
    const root = join(dir, 'append')
    await seed(root, 'base', 0)
    const db = await DirNamespaceClient.open(root)
    await db.dropTable({ namespace: [], name: 'base' })
    await db.close()
    // The base must have the file's schema: import it once, completely.
    expect((await runWriter(['import', root, file, 'create', 'base'], Infinity)).code).toBe(0)
    let rows = ROWS
    for (let i = 0; i < ITERATIONS; i++) {
      const run = await runWriter(['import', root, file, 'append', 'base'], killPoint())
      const { counts, recovered } = await reopenAndCheck(root)
      const now = counts.get('base')
      expect([rows, rows + ROWS], `${run.output}\n${recovered.join('\n')}`).toContain(now)
      if (!run.killed) expect(now).toBe(rows + ROWS)
      rows = now!
    }
  }, 180_000)

  it('overwrite: the table holds the old rows or all the new ones, never staging', async () => {
    const root = join(dir, 'overwrite')
    await seed(root, 'target', 1000)
    let rows = 1000
    for (let i = 0; i < ITERATIONS; i++) {
      const run = await runWriter(['import', root, file, 'overwrite', 'target'], killPoint())
      const { counts } = await reopenAndCheck(root)
      const now = counts.get('target')
      expect([rows, ROWS], run.output).toContain(now)
      if (!run.killed) expect(now).toBe(ROWS)
      rows = now!
    }
    expect(existsSync(join(root, '.lcb-journal'))).toBe(false)
  }, 180_000)
})

describe('kill -9 during renames', () => {
  it('leaves the table listed exactly once, with all its rows', async () => {
    const root = join(dir, 'rename')
    const client = await DirNamespaceClient.open(root, { create: true })
    for (const ns of [['ns'], ['ns', 'deep'], ['other']]) await client.createNamespace(ns)
    await client.createTable({ namespace: [], name: 'moving' }, sampleTable(1000))
    await client.close()
    const places = [[], ['ns'], ['ns', 'deep'], ['other']]
    for (let i = 0; i < Number(process.env.CRASH_ITERATIONS ?? 20); i++) {
      await runWriter(['rename', root, '40'], 1 + Math.floor(random() * 30))
      const reopened = await DirNamespaceClient.open(root)
      const found: string[] = []
      for (const namespace of places) {
        for (const name of await lanceNames(root, namespace)) {
          found.push([...namespace, name].join('/'))
          expect((await reopened.describeTable({ namespace, name })).rowCount).toBe(1000)
        }
      }
      await reopened.close()
      expect(found, `iteration ${i}`).toHaveLength(1)
      expect((await readdir(root)).filter((n) => n.startsWith('.lcb-'))).toEqual([])
    }
  }, 180_000)
})
