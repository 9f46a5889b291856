/**
 * The soak: a server process attacked for a while with damaged Arrow bodies on every route, name
 * collisions and valid writes, while a second client keeps reading; then SIGTERM. It counts attempts,
 * hangs (no answer within the deadline), 5xx answers and partial tables (listed but unreadable, or with a
 * row count no valid write could have made). The regular run does a short round; `RELIABILITY_SOAK=1`
 * (optionally `RELIABILITY_SOAK_ATTEMPTS=n`, default 3000) runs the long one and prints its figures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tempDir } from '../support'
import { damage, validBodies } from './damage'
import { bystander, request, STREAM } from './http'
import { spawnServer, type ServerProcess } from './processes'

const SOAK = process.env.RELIABILITY_SOAK === '1'
const ATTEMPTS = SOAK ? Number(process.env.RELIABILITY_SOAK_ATTEMPTS ?? 3000) : 150
const DEADLINE_MS = 20_000

let root: { dir: string; cleanup: () => Promise<void> }
let server: ServerProcess
beforeAll(async () => {
  root = await tempDir('lcb-soak-')
  server = await spawnServer(root.dir)
})
afterAll(async () => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL')
  await root?.cleanup()
})

describe(SOAK ? 'reliability soak (RELIABILITY_SOAK=1)' : 'reliability soak (short round; RELIABILITY_SOAK=1 for the long one)', () => {
  it('no hangs, no 5xx, no partial tables; SIGTERM still stops the server', { timeout: SOAK ? 3_600_000 : 120_000 }, async () => {
    const bodies = validBodies()
    const rowsPerBody = bodies[0]!.table.numRows
    const post = (path: string, body: Uint8Array | string, type: string) => request(server.url, 'POST', path, { body, type, deadlineMs: DEADLINE_MS })
    expect((await post('/v1/namespace/soak/create', '{}', 'application/json')).status).toBe(200)
    expect((await post('/v1/tables/target', bodies[0]!.bytes, STREAM)).status).toBe(200)
    const side = bystander(server.url)
    const counts = { attempts: 0, hangs: 0, fivexx: 0, refused: 0, accepted: 0, partialTables: 0 }
    const fivexx: string[] = []
    for (let i = 0; i < ATTEMPTS; i++) {
      const source = bodies[i % bodies.length]!
      const { bytes } = damage(source.bytes, 50_000 + i)
      const kind = i % 5
      const [path, body, type] =
        kind === 0 ? [`/v1/tables/s${i}`, bytes, STREAM]
        : kind === 1 ? [`/v1/table/soak%24c${i}/create`, bytes, STREAM]
        : kind === 2 ? ['/v1/table/target/insert', bytes, STREAM]
        : kind === 3 ? [`/v1/table/soak%24n${i % 20}/declare`, '{}', 'application/json'] // repeats: collisions
        : [`/v1/namespace/soak%24n${(i + 7) % 20}/create`, '{}', 'application/json'] // collides with declared tables
      counts.attempts++
      try {
        const r = await post(path, body, type)
        if (r.status >= 500) {
          counts.fivexx++
          fivexx.push(`${path}: ${r.status} ${r.text}`)
        } else if (r.status >= 400) counts.refused++
        else counts.accepted++
      } catch {
        counts.hangs++
      }
    }
    const { answered, failures } = await side.stop()
    // Every listed table opens, and holds a whole number of valid writes' rows (or is only declared).
    for (const [listPath, prefix] of [['/v1/tables', ''], ['/v1/namespace/soak/table/list', 'soak%24']] as const) {
      let pageToken: string | undefined
      do {
        const list = (await request(server.url, 'GET', `${listPath}?limit=1000${pageToken ? `&page_token=${encodeURIComponent(pageToken)}` : ''}`)).json() as { tables: string[]; page_token?: string }
        for (const t of list.tables) {
          const d = await post(`/v1/table/${prefix}${t}/describe?load_detailed_metadata=true`, '{}', 'application/json')
          const described = d.status === 200 ? (d.json() as { num_rows?: number; is_only_declared?: boolean }) : undefined
          const whole = described && (described.is_only_declared || (described.num_rows !== undefined && described.num_rows % rowsPerBody === 0))
          if (!whole) counts.partialTables++
        }
        pageToken = list.page_token
      } while (pageToken)
    }
    // SIGTERM while damaged bodies are still arriving: the server stops (exit 0), it does not spin.
    const burst = Array.from({ length: 20 }, (_, i) => post(`/v1/tables/burst${i}`, damage(bodies[i % bodies.length]!.bytes, 90_000 + i).bytes, STREAM).catch(() => undefined))
    const stopped = await server.stop()
    await Promise.all(burst)
    const figures = { ...counts, bystanderAnswers: answered, bystanderFailures: failures.length, exitCode: stopped }
    console.log(`reliability soak: ${JSON.stringify(figures)}`)
    expect(fivexx).toEqual([])
    expect(counts.hangs).toBe(0)
    expect(counts.partialTables).toBe(0)
    expect(failures).toEqual([])
    expect(answered).toBeGreaterThan(0)
    expect(stopped).toBe(0)
  })
})

