/**
 * Scale-out: three `npm run serve` processes over one az:// catalog (Azurite), with no lock between them — only
 * the store's conditional writes (name claims, Lance's commits). lancedb REST clients spread across the three
 * create, append (12 concurrent appends per table, 3 tables at once) and drop; afterwards every row is there exactly
 * once and every table opens from every process. Then one process is killed (SIGKILL) in the middle of writes: the
 * catalog still opens, nothing is half made.
 */
import * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NO_CLOUD_ENV, startAzurite, type Azurite } from '../helpers/azurite'
import { arrowStream, KEY, sampleTable } from './support'
import { spawnStoreServer, type StoreServer } from './objstore-support'

Object.assign(process.env, NO_CLOUD_ENV)

const TABLES = 3
const APPENDS = 12
const BATCH = 5

let az: Azurite
let root: string
let servers: StoreServer[] = []
let dbs: lancedb.Connection[] = []

beforeAll(async () => {
  az = await startAzurite()
  root = await az.freshRoot('shared')
  // The first process makes the catalog (its __manifest); the others join it.
  const first = await spawnStoreServer(root, az.storageOptions, ['--vend-storage-options'])
  servers = [first, ...(await Promise.all([1, 2].map(() => spawnStoreServer(root, az.storageOptions, ['--vend-storage-options']))))]
  dbs = await Promise.all(servers.map((s) => lancedb.connectNamespace('rest', { uri: s.url, headers: { 'x-api-key': KEY } })))
})
afterAll(async () => {
  for (const db of dbs) db.close()
  for (const s of servers) await s.stop()
  await az?.stop()
})

const rows = (ids: number[]) => ids.map((id) => ({ id, label: `row ${id}` }))
const range = (start: number, n: number) => Array.from({ length: n }, (_, i) => start + i)
const post = (url: string, path: string, body: string | Uint8Array, type = 'application/json') =>
  fetch(`${url}${path}`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': type }, body })

describe('three server processes over one az:// catalog', () => {
  /**
   * lancedb's REST client creates a root table by declaring it here and then writing the dataset itself, straight to
   * the store. Declare lets one racer through (its `.lance-reserved` is written with `If-None-Match: *`), but the
   * client, told "exists", describes the table, sees it only declared and — by its design (rest-contract §6) — writes
   * there too. Lance commits a new dataset as an Overwrite, which never conflicts, so a creator that lost the race for
   * version 1 may land as version 2. That write never passes through a server, so no server can stop it: the table
   * is whole with one creator's rows, the others' rows are in older versions. Our own create routes (next test) have
   * exactly one winner.
   */
  it('keeps one of three lancedb clients racing to create one name whole (the others fail or become older versions)', async () => {
    const outcomes = await Promise.allSettled(dbs.map((db, i) => db.createTable('race', rows(range(i * 100, 3)))))
    const won = outcomes.filter((o) => o.status === 'fulfilled').length
    expect(won).toBeGreaterThanOrEqual(1)
    for (const o of outcomes) if (o.status === 'rejected') expect(String(o.reason)).toMatch(/already exists|commit conflict/i)
    for (const db of dbs) {
      const table = await db.openTable('race')
      const ids = (await table.query().select(['id']).toArray()).map((r) => Number(r.id))
      expect(ids).toHaveLength(3)
      expect(new Set(ids.map((id) => Math.floor(id / 100))).size).toBe(1) // one creator's rows
      expect(await table.listVersions()).toHaveLength(won)
    }
  })

  /**
   * Our create routes claim the name first (a claim blob written with `If-None-Match: *`), so whatever the timing,
   * exactly one racer answers 200 and the others 409 with the contract's code; each racer sends its own row count,
   * and the table holds the winner's.
   */
  it('through our create routes, racing creates of one namespace, child table or root table: exactly one 200, the others 409, the winner\'s rows', async () => {
    const ARROW = 'application/vnd.apache.arrow.stream'
    for (let round = 0; round < 3; round++) {
      for (const [path, loserCode] of [
        [`/v1/namespace/rn${round}/create`, 2],
        [`/v1/table/rn0%24rt${round}/create`, 5],
        [`/v1/table/rr${round}/create`, 5],
      ] as const) {
        const answers = await Promise.all(servers.map(async (s, i) => {
          const r = path.includes('/namespace/') ? await post(s.url, path, '{}') : await post(s.url, path, Buffer.from(arrowStream(sampleTable(i + 1))), ARROW)
          return { status: r.status, body: (await r.json()) as { code?: number } }
        }))
        const winners = answers.flatMap((a, i) => (a.status === 200 ? [i] : []))
        expect(winners, `${path}: ${JSON.stringify(answers)}`).toHaveLength(1)
        for (const a of answers.filter((x) => x.status !== 200)) {
          expect(a, path).toMatchObject({ status: 409, body: { code: loserCode, error: expect.stringMatching(/already exists/) } })
        }
        if (!path.includes('/namespace/')) {
          const d = await post(servers[(winners[0]! + 1) % 3]!.url, path.replace(/create$/, 'describe?load_detailed_metadata=true'), '{}')
          expect(((await d.json()) as { num_rows: number }).num_rows, path).toBe(winners[0]! + 1)
        }
      }
    }
    // The catalog lists each name once and still takes writes from every process.
    const listed = (await (await fetch(`${servers[1]!.url}/v1/namespace/rn0/table/list`, { headers: { 'x-api-key': KEY } })).json()) as { tables: string[] }
    expect(listed.tables.sort()).toEqual(['rt0', 'rt1', 'rt2'])
    for (const [i, s] of servers.entries()) expect((await post(s.url, `/v1/table/rn0%24after${i}/create`, Buffer.from(arrowStream()), ARROW)).status).toBe(200)
    for (const name of ['rr0', 'rr1', 'rr2']) await dbs[0]!.dropTable(name)
  })

  // Its own time limit: 6.5–18 s in fresh-clone runs, but it is 36 commits racing through three processes against
  // Azurite, and in a pair of runs in a slow hour (run 36) every test of this file ran 4–8× slower than usual (the
  // namespace test below 27 s against 3–8 s): this one then passed the default 60 s, still making progress.
  it(`keeps every row of ${APPENDS} concurrent appends per table, spread over the three, exactly once`, { timeout: 180_000 }, async () => {
    const names = range(0, TABLES).map((t) => `events${t}`)
    // Each table is created through a different process.
    await Promise.all(names.map((name, t) => dbs[t % 3]!.createTable(name, rows([-1]))))
    const appends = names.flatMap((name, t) =>
      range(0, APPENDS).map(async (k) => {
        const db = dbs[(k + t) % 3]!
        const table = await db.openTable(name)
        // Lance retries compatible commits itself; should it give up under load ("Retryable commit conflict"),
        // nothing was written and the client tries again, as the error says.
        for (let attempt = 1; ; attempt++) {
          try {
            await table.add(rows(range(k * BATCH, BATCH)))
            return
          } catch (error) {
            if (attempt >= 5 || !/Retryable commit conflict/i.test(String(error))) throw error
          }
        }
      }),
    )
    const settled = await Promise.allSettled(appends)
    expect(settled.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason))).toEqual([])
    const expected = [-1, ...range(0, APPENDS * BATCH)]
    for (const name of names) {
      for (const db of dbs) {
        const table = await db.openTable(name)
        const ids = (await table.query().select(['id']).toArray()).map((r) => Number(r.id)).sort((a, b) => a - b)
        expect(ids).toEqual(expected)
      }
    }
  })

  it('creates namespaces, child tables and drops through different processes, and all three agree', async () => {
    await Promise.all(range(0, 3).map((i) => post(servers[i]!.url, `/v1/namespace/ns${i}/create`, '{}').then((r) => expect(r.status).toBe(200))))
    const creates = await Promise.all(
      range(0, 6).map((i) => post(servers[i % 3]!.url, `/v1/table/ns${i % 3}%24t${i}/create`, Buffer.from(arrowStream(sampleTable(4))), 'application/vnd.apache.arrow.stream')),
    )
    for (const r of creates) expect(r.status, await r.clone().text()).toBe(200)
    await dbs[2]!.dropTable('race')
    await dbs[0]!.dropTable('t3', ['ns0'])
    for (const [i, s] of servers.entries()) {
      expect((await dbs[i]!.tableNames()).sort()).toEqual(['events0', 'events1', 'events2'])
      expect((await dbs[i]!.listNamespaces()).namespaces.sort()).toEqual(['ns0', 'ns1', 'ns2', 'rn0', 'rn1', 'rn2'])
      expect(await dbs[i]!.tableNames(['ns0'])).toEqual(['t0'])
      for (const [ns, t] of [['ns0', 't0'], ['ns1', 't1'], ['ns1', 't4'], ['ns2', 't2'], ['ns2', 't5']] as const) {
        const d = await post(s.url, `/v1/table/${ns}%24${t}/describe?load_detailed_metadata=true`, '{}')
        expect(d.status).toBe(200)
        expect(((await d.json()) as { num_rows: number }).num_rows).toBe(4)
      }
    }
  })
})

describe('no process serves a stale answer', () => {
  it("each process sees another's append, drop and re-create at once", async () => {
    const ARROW = 'application/vnd.apache.arrow.stream'
    const rowsOf = async (s: StoreServer, path: string) => {
      const r = await post(s.url, `${path}/describe?load_detailed_metadata=true`, '{}')
      return r.status === 200 ? ((await r.json()) as { num_rows: number }).num_rows : r.status
    }
    for (const path of ['/v1/table/fresh', '/v1/table/ns2%24fresh']) {
      expect((await post(servers[0]!.url, `${path}/create`, Buffer.from(arrowStream(sampleTable(2))), ARROW)).status).toBe(200)
      for (const s of servers) expect(await rowsOf(s, path)).toBe(2) // every process now holds a handle
      expect((await post(servers[0]!.url, `${path}/insert`, Buffer.from(arrowStream(sampleTable(3))), ARROW)).status).toBe(200)
      for (const s of servers) expect(await rowsOf(s, path)).toBe(5)
      expect((await post(servers[1]!.url, `${path}/drop`, '{}')).status).toBe(200)
      for (const s of servers) expect(await rowsOf(s, path)).toBe(404)
      expect((await post(servers[2]!.url, `${path}/create`, Buffer.from(arrowStream(sampleTable(7))), ARROW)).status).toBe(200)
      for (const s of servers) expect(await rowsOf(s, path)).toBe(7)
      expect((await post(servers[0]!.url, `${path}/drop`, '{}')).status).toBe(200)
    }
  })
})

describe('a server process killed in the middle of writes', () => {
  it('leaves a catalog that opens, with every listed table whole', async () => {
    const victim = await spawnStoreServer(root, az.storageOptions, ['--vend-storage-options'])
    expect((await post(victim.url, '/v1/namespace/crash/create', '{}')).status).toBe(200)
    expect((await post(victim.url, '/v1/table/crash%24base/create', Buffer.from(arrowStream(sampleTable(BATCH))), 'application/vnd.apache.arrow.stream')).status).toBe(200)
    // Keep writing through the victim (creates and appends, root and child) until it dies under them.
    let done = 0
    let stop = false
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const path = i % 3 === 0 ? `/v1/table/crash%24w${w}x${i}/create` : i % 3 === 1 ? `/v1/table/kill${w}x${i}/create` : '/v1/table/crash%24base/insert'
        try {
          await post(victim.url, path, Buffer.from(arrowStream(sampleTable(BATCH))), 'application/vnd.apache.arrow.stream')
          done++
        } catch {
          return // the connection died with the process
        }
      }
    }
    const writers = range(0, 4).map(writer)
    await expect.poll(() => done, { timeout: 60_000 }).toBeGreaterThanOrEqual(12)
    await victim.kill()
    stop = true
    await Promise.all(writers)

    // A new process opens the catalog; every table it lists (and those the others list) opens, whole.
    const fresh = await spawnStoreServer(root, az.storageOptions)
    const declaredOnly: string[] = []
    try {
      for (const s of [fresh, servers[0]!]) {
        const namespaces = (await (await fetch(`${s.url}/v1/namespace/%24/list`, { headers: { 'x-api-key': KEY } })).json()) as { namespaces: string[] }
        expect(namespaces.namespaces).toContain('crash')
        expect(((await (await fetch(`${s.url}/v1/namespace/%24/table/list`, { headers: { 'x-api-key': KEY } })).json()) as { tables: string[] }).tables.some((t) => t.startsWith('kill'))).toBe(true)
        for (const [ns, prefix] of [['crash', 'crash%24'], ['', '']] as const) {
          const listPath = `/v1/namespace/${ns || '%24'}/table/list`
          const tables = ((await (await fetch(`${s.url}${listPath}`, { headers: { 'x-api-key': KEY } })).json()) as { tables: string[] }).tables
          // The earlier tests' tables are there too; the victim wrote `crash/*` and `kill*`.
          for (const t of tables.filter((name) => ns === 'crash' || name.startsWith('kill'))) {
            const d = await post(s.url, `/v1/table/${prefix}${t}/describe?load_detailed_metadata=true`, '{}')
            expect(d.status, `${ns}/${t}: ${await d.clone().text()}`).toBe(200)
            const described = (await d.json()) as { num_rows?: number; is_only_declared?: boolean }
            if (described.is_only_declared) {
              // Killed between lancedb's declare and its first commit: no data at all, and drop removes it.
              declaredOnly.push(`${ns}/${t}`)
              expect((await post(s.url, `/v1/table/${prefix}${t}/drop`, '{}')).status).toBe(200)
              continue
            }
            const n = described.num_rows!
            // Each write was BATCH rows, all or nothing.
            expect(n % BATCH, `${ns}/${t} has ${n} rows`).toBe(0)
            expect(n).toBeGreaterThan(0)
          }
        }
      }
      // What was only declared is gone now; everything left opens.
      for (const name of declaredOnly) {
        const [ns, t] = name.split('/') as [string, string]
        const listPath = `/v1/namespace/${ns || '%24'}/table/list`
        expect(((await (await fetch(`${fresh.url}${listPath}`, { headers: { 'x-api-key': KEY } })).json()) as { tables: string[] }).tables).not.toContain(t)
      }
    } finally {
      expect(await fresh.stop()).toBe(0)
    }
  })
})
