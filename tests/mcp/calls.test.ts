import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { request } from 'node:http'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CallGate } from '../../src/mcp/context'
import { serveHttp } from '../../src/mcp/http'
import { buildMcpServer, openMcpContext } from '../../src/mcp/server'
import { buildCatalog, makeTempDir, removeDir } from '../helpers/catalog'

/** A promise and the function that settles it. */
function latch(): { promise: Promise<void>; open: () => void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open }
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 600 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 50))
  expect(check()).toBe(true)
}

describe('at most N calls at once', () => {
  it('runs N, queues the rest in order, and lets a cancelled waiter leave without running', async () => {
    const gate = new CallGate(2)
    const releases = Array.from({ length: 5 }, () => latch())
    const started: number[] = []
    let most = 0
    const calls = releases.map((release, i) =>
      gate.run(async () => {
        started.push(i)
        most = Math.max(most, gate.active)
        await release.promise
        return i
      }),
    )
    const leaving = new AbortController()
    const cancelled = gate.run(async () => started.push(99), leaving.signal)
    await until(() => started.length === 2)
    expect(gate.queued).toBe(4)
    leaving.abort()
    await expect(cancelled).rejects.toThrow(/cancelled while it waited/)
    for (const release of releases) release.open()
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4])
    expect(started).toEqual([0, 1, 2, 3, 4])
    expect(most).toBe(2)
    expect(gate.active).toBe(0)
  })

  it('refuses a gate of no calls in words', () => {
    expect(() => new CallGate(0)).toThrow(/at least 1/)
  })
})

describe('a cancelled call stops its scan; a read-only catalog refuses writes in core too', () => {
  let root: string
  let ctx: Awaited<ReturnType<typeof openMcpContext>>
  let client: Client
  const seen: { method: string; input: Record<string, unknown> }[] = []
  let holdCounts: Promise<void> | null = null

  beforeAll(async () => {
    root = await makeTempDir('lcb-mcp-calls-')
    await buildCatalog(root, { tables: [{ namespace: [], name: 'things', rows: 30 }] })
    ctx = await openMcpContext({ source: { root }, maxCalls: 1 })
    // Watch what the tools ask the service (and hold counts until told), to see the cancel reach the core.
    const dispatch = ctx.service.dispatch.bind(ctx.service)
    ctx.service.dispatch = async (method, input) => {
      seen.push({ method: String(method), input: input as Record<string, unknown> })
      if (method === 'tables/count' && holdCounts) await holdCounts
      return dispatch(method, input)
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
    await buildMcpServer(ctx).connect(serverSide)
    client = new Client({ name: 'lcb-test', version: '1.0.0' })
    await client.connect(clientSide)
  }, 120_000)
  afterAll(async () => {
    await client?.close()
    await ctx?.close()
    await removeDir(root)
  })

  it("sends requests/cancel for the scan's request id when the client cancels", async () => {
    const hold = latch()
    holdCounts = hold.promise
    const controller = new AbortController()
    const call = client.callTool({ name: 'count_rows', arguments: { table: 'things' } }, undefined, { signal: controller.signal })
    await until(() => seen.some((s) => s.method === 'tables/count'))
    controller.abort()
    await expect(call).rejects.toThrow()
    const count = seen.find((s) => s.method === 'tables/count')!
    await until(() => seen.some((s) => s.method === 'requests/cancel' && s.input.requestId === count.input.requestId))
    hold.open()
    holdCounts = null
    // The gate's one slot is free again: the next call runs.
    const next = await client.callTool({ name: 'count_rows', arguments: { table: 'things' } })
    expect(JSON.parse((next.content as { text: string }[])[0]!.text).count).toBe(30)
  })

  it('an HTTP client that goes away mid-call stops its scan', async () => {
    const key = 'a-test-key-of-enough-length'
    const http = await serveHttp(() => buildMcpServer(ctx), { port: 0, apiKey: key })
    const hold = latch()
    holdCounts = hold.promise
    const countsBefore = seen.filter((s) => s.method === 'tables/count').length
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'count_rows', arguments: { table: 'things' } } })
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
      const req = request(http.url, { method: 'POST', headers })
      req.on('error', () => undefined)
      req.end(body)
      await until(() => seen.filter((s) => s.method === 'tables/count').length > countsBefore)
      const count = seen.filter((s) => s.method === 'tables/count').at(-1)!
      req.destroy()
      await until(() => seen.some((s) => s.method === 'requests/cancel' && s.input.requestId === count.input.requestId))
    } finally {
      hold.open()
      holdCounts = null
      await http.close()
    }
  })

  it('opens the catalog read-only without --allow-writes: the core refuses a write', async () => {
    const result = await ctx.service.dispatch('namespaces/create', { connectionId: ctx.connectionId, namespace: ['x'] })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.code).toBe('permission_denied')
  })
})
