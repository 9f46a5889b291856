/**
 * Two `npm run serve` processes on one catalog, racing to create and declare the same names: every
 * answer is a success or a 409 (code 5, or 14 for a concurrent modification) — never a 500 — exactly one
 * create per name wins, and the catalog lists each name once and reads it afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { arrowStream, tempDir } from '../support'
import { request, STREAM } from './http'
import { spawnServer, type ServerProcess } from './processes'

let root: { dir: string; cleanup: () => Promise<void> }
let servers: ServerProcess[] = []
beforeAll(async () => {
  root = await tempDir('lcb-two-servers-')
  const first = await spawnServer(root.dir) // the first one makes the catalog (and its __manifest)
  servers = [first, await spawnServer(root.dir)]
})
afterAll(async () => {
  for (const s of servers) expect(await s.stop()).toBe(0)
  await root?.cleanup()
})

describe('a create race across two server processes', () => {
  const NAMES = 6
  it('has one winner per name; every loser gets 409 with code 5 or 14', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    expect((await request(a.url, 'POST', '/v1/namespace/race/create', { body: '{}', type: 'application/json' })).status).toBe(200)
    const attempts = Array.from({ length: NAMES }, (_, i) => i).flatMap((i) =>
      [a, b].flatMap((s) => [
        request(s.url, 'POST', `/v1/table/race%24t${i}/create`, { body: arrowStream(), type: STREAM }).then((r) => ({ name: `t${i}`, r })),
        request(s.url, 'POST', `/v1/tables/r${i}`, { body: arrowStream(), type: STREAM }).then((r) => ({ name: `r${i}`, r })),
        request(s.url, 'POST', `/v1/table/race%24d${i}/declare`, { body: '{}', type: 'application/json' }).then((r) => ({ name: `d${i}`, r })),
      ]),
    )
    const results = await Promise.all(attempts)
    const wins = new Map<string, number>()
    for (const { name, r } of results) {
      expect(r.status, `${name}: ${r.status} ${r.text}`).not.toBeGreaterThanOrEqual(500)
      if (r.status === 200) wins.set(name, (wins.get(name) ?? 0) + 1)
      else {
        expect(r.status, `${name}: ${r.text}`).toBe(409)
        expect([5, 14], `${name}: ${r.text}`).toContain(r.json().code)
      }
    }
    for (let i = 0; i < NAMES; i++) for (const name of [`t${i}`, `r${i}`, `d${i}`]) expect(wins.get(name) ?? 0, name).toBeLessThanOrEqual(1)
    // Afterwards both servers list each name at most once, and every listed table reads or is only declared.
    for (const s of [a, b]) {
      for (const [listPath, prefix] of [['/v1/namespace/race/table/list', 'race%24'], ['/v1/tables', '']] as const) {
        const list = (await request(s.url, 'GET', listPath)).json() as { tables: string[] }
        expect(new Set(list.tables).size).toBe(list.tables.length)
        for (const t of list.tables) {
          const d = await request(s.url, 'POST', `/v1/table/${prefix}${t}/describe?load_detailed_metadata=true`, { body: '{}', type: 'application/json' })
          expect(d.status, `${t}: ${d.text}`).toBe(200)
        }
      }
      // And the catalog still takes writes.
      const probe = `p${servers.indexOf(s)}`
      expect((await request(s.url, 'POST', `/v1/table/race%24${probe}/create`, { body: arrowStream(), type: STREAM })).status).toBe(200)
    }
  })
})
