import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { KEY, serveTemp } from '../support'
import { damage, validBodies } from './damage'
import { bystander, request, STREAM } from './http'

type Server = Awaited<ReturnType<typeof serveTemp>>

/** Damaged bodies per route in the regular run; RELIABILITY_SOAK=1 runs the soak instead (see soak.test.ts). */
const PER_ROUTE = Number(process.env.RELIABILITY_BODIES ?? 60)

/**
 * Damaged Arrow IPC bodies (truncated, flipped, ranges duplicated or inserted, length bombs in metadata
 * and buffers) on every route that takes one: each is answered with a 4xx `{error, code}` or, when the
 * damage left a readable table, a success — never a 5xx, never a hang — while a second client is served.
 */
describe('damaged Arrow bodies', () => {
  let server: Server
  const bodies = validBodies()
  beforeAll(async () => {
    server = await serveTemp()
    const plain = bodies.find((b) => b.name === 'plain-stream')!
    expect((await request(server.url, 'POST', '/v1/tables/target', { body: plain.bytes, type: STREAM })).status).toBe(200)
  })
  afterAll(async () => {
    await server?.close()
  })

  const routes = [
    { name: 'POST /v1/tables/{name}', path: (i: number) => `/v1/tables/t${i}` },
    { name: 'POST /v1/table/{id}/create', path: (i: number) => `/v1/table/c${i}/create` },
    { name: 'POST /v1/table/{id}/insert', path: () => '/v1/table/target/insert' },
  ]

  for (const route of routes) {
    it(`${route.name}: every damaged body is refused (400, code 13) or makes a readable table; others are served meanwhile`, async () => {
      const side = bystander(server.url)
      const outcomes: Record<string, number> = {}
      for (let i = 0; i < PER_ROUTE; i++) {
        const source = bodies[i % bodies.length]!
        const { mutation, bytes } = damage(source.bytes, 1000 * routes.indexOf(route) + i)
        const r = await request(server.url, 'POST', route.path(i), { body: bytes, type: STREAM })
        const what = `${source.name} ${mutation} seed ${1000 * routes.indexOf(route) + i}: ${r.status} ${r.text}`
        expect(r.status, what).toBeLessThan(500)
        const reply = r.json()
        if (r.status >= 400) {
          expect(Number.isInteger(reply.code), what).toBe(true)
          expect(typeof reply.error, what).toBe('string')
          expect([13, 20], what).toContain(reply.code)
        }
        outcomes[r.status] = (outcomes[r.status] ?? 0) + 1
      }
      const { answered, failures } = await side.stop()
      expect(failures).toEqual([])
      expect(answered).toBeGreaterThan(0)
      expect(outcomes['400'] ?? 0).toBeGreaterThan(PER_ROUTE / 2)
      // The catalog still works: every listed table describes.
      const list = (await request(server.url, 'GET', '/v1/tables')).json() as { tables: string[] }
      for (const name of list.tables) {
        const d = await request(server.url, 'POST', `/v1/table/${name}/describe?load_detailed_metadata=true`, { body: '{}', type: 'application/json' })
        expect(d.status, `${name}: ${d.text}`).toBe(200)
      }
    })
  }

  it('accepts every valid body shape, as a stream or a file, and streams written by arrow-rs', async () => {
    for (const body of bodies) {
      const r = await request(server.url, 'POST', `/v1/tables/valid_${body.name.replace(/-/g, '_')}`, { body: body.bytes, type: STREAM })
      expect(r.status, `${body.name}: ${r.text}`).toBe(200)
      const count = await request(server.url, 'POST', `/v1/table/valid_${body.name.replace(/-/g, '_')}/count_rows`, { body: '{}', type: 'application/json' })
      expect(count.text).toBe(String(body.table.numRows))
    }
    // A page as Lance (arrow-rs) wrote it, sent back as a create body.
    const raw = await fetch(`${server.url}/v1/table/valid_nested_stream/query`, { method: 'POST', headers: { 'x-api-key': KEY, 'content-type': 'application/json', accept: STREAM }, body: JSON.stringify({ k: 100 }) })
    expect(raw.status).toBe(200)
    const again = await request(server.url, 'POST', '/v1/tables/from_lance', { body: new Uint8Array(await raw.arrayBuffer()), type: STREAM })
    expect(again.status, again.text).toBe(200)
  })

  it('answers a JSON body nested 5 million deep with 400 code 13 (or 413), fast, and keeps serving', async () => {
    const deep = '['.repeat(5_000_000) + ']'.repeat(5_000_000)
    const r = await request(server.url, 'POST', '/v1/table/target/query', { body: deep, type: 'application/json' })
    expect([400, 413]).toContain(r.status)
    expect(r.json().code).toBe(13)
    const nested = `{"k": 1, "x": ${'['.repeat(100)}${']'.repeat(100)}}`
    const r2 = await request(server.url, 'POST', '/v1/table/target/query', { body: nested, type: 'application/json' })
    expect(r2.status).toBe(400)
    expect(r2.json()).toMatchObject({ code: 13 })
    expect((await request(server.url, 'GET', '/v1/tables')).status).toBe(200)
  })
})
