/**
 * One winner, always: every kind of create (namespace, root table, child table, declare, register) sent at the same
 * moment to three `npm run serve` processes over one catalog — a local directory, and an az:// catalog on Azurite —
 * while both cores are kept busy by a child process spinning. Each round and kind: exactly one 200, every other
 * racer a 409 with the contract's code (2 for a namespace, 5 for a table), and what the catalog then lists and
 * describes is the winner's (each racer sends its own rows, properties or location).
 *
 * `npm test` runs CREATE_RACE_ROUNDS rounds (default 1); the full run is
 *   CREATE_RACE_ROUNDS=200 npx vitest run tests/server/create-race.test.ts
 * (it reports every 10 rounds on stderr; CREATE_RACE_SECONDS_PER_ROUND, default 20, scales its time limit).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NO_CLOUD_ENV, startAzurite, type Azurite } from '../helpers/azurite'
import { spawnStoreServer, type StoreServer } from './objstore-support'
import { arrowStream, KEY, sampleTable } from './support'

Object.assign(process.env, NO_CLOUD_ENV)

const ROUNDS = Number(process.env.CREATE_RACE_ROUNDS ?? 1)
const RACERS = 3
const ARROW = 'application/vnd.apache.arrow.stream'
/** The full run takes minutes on a loaded 2-core machine (more when run at low priority beside other work); the short one seconds. */
const TIMEOUT = Math.max(120_000, ROUNDS * Number(process.env.CREATE_RACE_SECONDS_PER_ROUND ?? 20) * 1000)

interface Answer {
  status: number
  body: { code?: number; error?: string; properties?: Record<string, string>; location?: string }
}

const post = async (url: string, path: string, body: string | Uint8Array, type = 'application/json'): Promise<Answer> => {
  const r = await fetch(`${url}${path}`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': type }, body: typeof body === 'string' ? body : Buffer.from(body) })
  const text = await r.text()
  return { status: r.status, body: text === '' ? {} : (JSON.parse(text) as Answer['body']) }
}
const get = async (url: string, path: string) => (await fetch(`${url}${path}`, { headers: { 'x-api-key': KEY } })).json() as Promise<Record<string, unknown>>

/** Two processes spinning, so both cores are saturated while the racers run. */
function busyLoops(): ChildProcess[] {
  return [0, 1].map(() => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }))
}

interface Kind {
  name: string
  /** The request racer `i` sends in round `r`. */
  request(r: number, i: number): { path: string; body: string | Uint8Array; type?: string }
  loserCode: number
  /** Which racer's create the catalog now holds (checked through another process than the winner's). */
  holder(url: string, r: number): Promise<number>
  /** Listed where it was made. */
  listed(url: string, r: number): Promise<string[]>
  name_(r: number): string
}

const rowsOf = async (url: string, id: string) => {
  const d = await post(url, `/v1/table/${id}/describe?load_detailed_metadata=true`, '{}')
  return (d.body as { num_rows: number }).num_rows
}

/** Racer `i` sends i + 1 rows: the row count names the creator. */
const tableKind = (name: string, ns: string | null): Kind => ({
  name,
  loserCode: 5,
  name_: (r) => `${name}${r}`,
  request: (r, i) => ({ path: `/v1/table/${ns ? `${ns}%24` : ''}${name}${r}/create`, body: arrowStream(sampleTable(i + 1)), type: ARROW }),
  holder: async (url, r) => (await rowsOf(url, `${ns ? `${ns}%24` : ''}${name}${r}`)) - 1,
  listed: async (url) => (await get(url, `/v1/namespace/${ns ?? '%24'}/table/list`)).tables as string[],
})

const namespaceKind: Kind = {
  name: 'namespace',
  loserCode: 2,
  name_: (r) => `n${r}`,
  request: (r, i) => ({ path: `/v1/namespace/n${r}/create`, body: JSON.stringify({ properties: { racer: String(i) } }) }),
  holder: async (url, r) => Number((await post(url, `/v1/namespace/n${r}/describe`, '{}')).body.properties?.racer),
  listed: async (url) => (await get(url, '/v1/namespace/%24/list')).namespaces as string[],
}

/** Declare holds no data: the holder is whoever answered 200 (checked to be exactly one), and the name is declared. */
const declareKind: Kind = {
  name: 'declare',
  loserCode: 5,
  name_: (r) => `d${r}`,
  request: (r) => ({ path: `/v1/table/d${r}/declare`, body: '{}' }),
  holder: async (url, r) => ((await post(url, `/v1/table/d${r}/describe`, '{}')).body as { is_only_declared?: boolean }).is_only_declared ? -1 : -2,
  listed: async (url) => (await get(url, '/v1/namespace/%24/table/list')).tables as string[],
}

/** Racer `i` registers its own dataset directory (`sources/s{r}_{i}.lance`); describe's location names the winner. */
const registerKind: Kind = {
  name: 'register',
  loserCode: 5,
  name_: (r) => `g${r}`,
  request: (r, i) => ({ path: `/v1/table/race%24g${r}/register`, body: JSON.stringify({ location: `sources/s${r}_${i}.lance` }) }),
  holder: async (url, r) => {
    const location = (await post(url, `/v1/table/race%24g${r}/describe`, '{}')).body.location ?? ''
    return Number(/s\d+_(\d+)\.lance/.exec(location)?.[1] ?? -1)
  },
  listed: async (url) => (await get(url, '/v1/namespace/race/table/list')).tables as string[],
}

async function race(servers: StoreServer[], kinds: Kind[]): Promise<string[]> {
  const problems: string[] = []
  // A long run says each problem when it happens (a later failure must not hide it).
  const problem = (text: string) => {
    if (ROUNDS > 1) process.stderr.write(`create-race problem: ${text}\n`)
    problems.push(text)
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const kind of kinds) {
      const answers = await Promise.all(servers.map((s, i) => {
        const q = kind.request(r, i)
        return post(s.url, q.path, q.body, q.type)
      }))
      const winners = answers.flatMap((a, i) => (a.status === 200 ? [i] : []))
      const where = `${kind.name} round ${r}`
      if (winners.length !== 1) problem(`${where}: ${winners.length} winners (${answers.map((a) => `${a.status} ${a.body.error ?? ''}`).join(' | ')})`)
      for (const a of answers.filter((x) => x.status !== 200)) {
        if (a.status !== 409 || a.body.code !== kind.loserCode || !/already exists|is taken by a table/.test(a.body.error ?? '')) problem(`${where}: a loser answered ${a.status} ${JSON.stringify(a.body)}`)
      }
      if (winners.length !== 1) continue
      const winner = winners[0]!
      // Read back through another process than the winner's.
      const reader = servers[(winner + 1) % servers.length]!.url
      const holder = await kind.holder(reader, r)
      if (kind === declareKind ? holder !== -1 : holder !== winner) problem(`${where}: ${winner} won, the catalog holds ${holder}'s create`)
      const listed = (await kind.listed(reader, r)).filter((n) => n === kind.name_(r))
      if (listed.length !== 1) problem(`${where}: listed ${listed.length} times`)
    }
    // A long run says how far it got (vitest prints a test's verdict only at its end).
    if (ROUNDS > 1 && ((r + 1) % 10 === 0 || r + 1 === ROUNDS)) process.stderr.write(`create-race: ${r + 1}/${ROUNDS} rounds, ${problems.length} problems\n`)
  }
  return problems
}

const tableKinds = [namespaceKind, tableKind('t', null), tableKind('c', 'race'), declareKind]

/** Run `work` with both cores saturated (started once the servers are up, so they start quickly). */
async function underLoad<T>(work: () => Promise<T>): Promise<T> {
  const busy = busyLoops()
  try {
    return await work()
  } finally {
    for (const child of busy) child.kill('SIGKILL')
  }
}

describe('racing creates through three server processes, both cores busy', () => {
  describe('on a local directory', () => {
    let root: string
    let servers: StoreServer[] = []
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'lcb-create-race-'))
      const first = await spawnStoreServer(root, {})
      servers = [first, ...(await Promise.all([1, 2].map(() => spawnStoreServer(root, {}))))]
      expect((await post(first.url, '/v1/namespace/race/create', '{}')).status).toBe(200)
      // The datasets the register racers offer: one per racer and round, inside the root.
      const sources = await lancedb.connect(join(root, 'sources'))
      for (let r = 0; r < ROUNDS; r++) for (let i = 0; i < RACERS; i++) await sources.createTable(`s${r}_${i}`, [{ id: i }])
      sources.close()
    }, TIMEOUT)
    afterAll(async () => {
      for (const s of servers) await s.stop()
      await rm(root, { recursive: true, force: true })
    })

    it(`has exactly one winner per create, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'} × ${RACERS} processes × namespace, root table, child table, declare, register`, async () => {
      expect(await underLoad(() => race(servers, [...tableKinds, registerKind]))).toEqual([])
    }, TIMEOUT)
  })

  describe('on an az:// catalog (Azurite)', () => {
    let az: Azurite
    let servers: StoreServer[] = []
    beforeAll(async () => {
      az = await startAzurite()
      const root = await az.freshRoot('race')
      const first = await spawnStoreServer(root, az.storageOptions)
      servers = [first, ...(await Promise.all([1, 2].map(() => spawnStoreServer(root, az.storageOptions))))]
      expect((await post(first.url, '/v1/namespace/race/create', '{}')).status).toBe(200)
    }, TIMEOUT)
    afterAll(async () => {
      for (const s of servers) await s.stop()
      await az?.stop()
    })

    // Register answers "unsupported" on object storage (docs/server.md, "Serving a catalog on object storage").
    it(`has exactly one winner per create, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'} × ${RACERS} processes × namespace, root table, child table, declare`, async () => {
      expect(await underLoad(() => race(servers, tableKinds))).toEqual([])
    }, TIMEOUT)
  })
})
