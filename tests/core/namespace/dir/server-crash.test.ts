import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { tableToIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeTempDir, removeDir } from '../../../helpers/catalog'
import { serverCli } from '../../../helpers/bundle'
import { numbersTable } from './fixtures/data'
import { lanceView, stagedIn, unlistedData } from './fixtures/lanceView'

/**
 * kill -9 of our catalog server (`src/server/cli.ts`) during a create and during an insert, at several points
 * (while the body arrives, while the staging table is written, as it is published, while an insert writes its
 * files); restart it on the same catalog and check over HTTP: each table listed once, complete or absent, with
 * its row count before or after, nothing staged — over HTTP, and in lancedb's own view of the catalog (every
 * namespace), with no table data left that no reader lists.
 */
const KEY = 'crash-key'
const ROWS = 400_000
const body = tableToIPC(numbersTable(ROWS), 'stream')
const STREAM = 'application/vnd.apache.arrow.stream'

let dir: string
let root: string

interface Running {
  child: ChildProcess
  url: string
}

/** Servers started and not yet killed: a failed assertion must not leave one running after the test. */
const running = new Set<ChildProcess>()

async function start(): Promise<Running> {
  const child = spawn(process.execPath, [await serverCli(), '--root', root, '--port', '0', '--api-key', KEY], {
    cwd: join(__dirname, '../../../..'),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  child.once('exit', () => running.delete(child))
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const line = /listening on (\S+)/.exec(out)
      if (line) resolve({ child, url: line[1]! })
    })
    // Read (an unread pipe that fills would stop the server) and kept for the error below.
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()))
    child.once('exit', (code) => reject(new Error(`server exited ${code}: ${out}`)))
  })
}

function kill(server: Running): Promise<void> {
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve())
    server.child.kill('SIGKILL')
  })
}

function call(server: Running, method: string, path: string, payload?: Uint8Array): Promise<Response> {
  return fetch(`${server.url}${path}`, { method, body: payload, headers: { 'x-api-key': KEY, ...(payload ? { 'content-type': STREAM } : {}) } })
}

/** Wait (by polling the disk, no fixed delay) until `ready()` or the request has settled. */
async function until(ready: () => Promise<boolean> | boolean, settled: { done: boolean }): Promise<void> {
  while (!settled.done && !(await ready())) await new Promise((r) => setTimeout(r, 2))
}

async function rowCount(server: Running, name: string): Promise<number | null> {
  const reply = await call(server, 'GET', `/v1/table/${name}/count_rows`)
  if (reply.status === 404) return null
  expect(reply.status).toBe(200)
  return Number(await reply.text())
}

async function listed(server: Running): Promise<string[]> {
  return ((await (await call(server, 'GET', '/v1/tables')).json()) as { tables: string[] }).tables
}

/** Staging directories: `.lcb-staging-*.lance` at the root, `{hex}_ns$.lcb-staging-*` for a child namespace. */
const stagingDirs = async () => (await readdir(root)).filter((n) => n.includes('.lcb-staging-')).length

beforeAll(async () => {
  dir = await makeTempDir('lcb-server-crash-')
  root = join(dir, 'catalog')
})
afterAll(async () => {
  for (const child of running) child.kill('SIGKILL')
  await removeDir(dir)
})

describe('kill -9 of the server', () => {
  it('during creates and inserts: after a restart every table is complete or absent', async () => {
    let server = await start()
    // The table inserts go to, made completely first, and a child namespace for creates there.
    expect((await call(server, 'POST', '/v1/table/base/create', body)).status).toBe(200)
    expect((await call(server, 'POST', '/v1/namespace/landing/create')).status).toBe(200)
    let baseRows = ROWS
    const points: Array<{ route: 'create' | 'insert'; when: 'at once' | 'staging' | 'published' | 'writing'; namespace?: string }> = [
      { route: 'create', when: 'at once' },
      { route: 'create', when: 'staging' },
      { route: 'create', when: 'staging', namespace: 'landing' },
      { route: 'create', when: 'published' },
      { route: 'create', when: 'staging' },
      { route: 'insert', when: 'at once' },
      { route: 'insert', when: 'writing' },
      { route: 'insert', when: 'writing' },
    ]
    for (const [i, point] of points.entries()) {
      const name = `c${i}`
      const id = point.namespace ? `${point.namespace}%24${name}` : name
      const filesBefore = (await readdir(join(root, 'base.lance', 'data'))).length
      const stagedBefore = await stagingDirs()
      const settled = { done: false }
      const request = call(server, 'POST', point.route === 'create' ? `/v1/table/${id}/create` : '/v1/table/base/insert?mode=append', body)
        .then((r) => r.status)
        .catch(() => 'killed')
        .finally(() => (settled.done = true))
      if (point.when === 'staging') await until(async () => (await stagingDirs()) > stagedBefore, settled)
      if (point.when === 'published') await until(() => existsSync(join(root, `${name}.lance`)), settled)
      if (point.when === 'writing') await until(async () => (await readdir(join(root, 'base.lance', 'data'))).length > filesBefore, settled)
      await kill(server)
      const status = await request
      server = await start()
      const tables = await listed(server)
      expect(tables.filter((t) => t.startsWith('.lcb-'))).toEqual([])
      expect(new Set(tables).size).toBe(tables.length)
      // The server has opened (and recovered) the catalog: lancedb itself sees complete tables only.
      const view = await lanceView(root)
      expect(stagedIn(view), JSON.stringify(view)).toEqual([])
      expect(await unlistedData(root)).toEqual([])
      if (point.route === 'create') {
        const rows = await rowCount(server, id)
        expect([null, ROWS], `${JSON.stringify(point)} → ${status}`).toContain(rows)
        if (status === 200) expect(rows).toBe(ROWS)
      } else {
        const rows = await rowCount(server, 'base')
        expect([baseRows, baseRows + ROWS], `${JSON.stringify(point)} → ${status}`).toContain(rows)
        if (status === 200) expect(rows).toBe(baseRows + ROWS)
        baseRows = rows!
      }
      expect((await readdir(root)).filter((n) => /^\.lcb-(staging|replaced|journal)/.test(n))).toEqual([])
    }
    await kill(server)
  }, 180_000)
})
