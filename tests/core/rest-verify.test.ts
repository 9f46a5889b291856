import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectNamespace } from '../../src/core/namespace/connect'
import { RestNamespaceClient, verifyConnection } from '../../src/core/namespace/rest'
import { KEY, serveTemp } from '../server/support'

describe('verifyConnection ("Test connection") against our server', () => {
  let server: Awaited<ReturnType<typeof serveTemp>>
  beforeAll(async () => {
    server = await serveTemp()
  })
  afterAll(async () => {
    await server?.close()
  })

  const connect = async (key: string) => (await connectNamespace('rest', { uri: server.url, 'headers.x-api-key': key })) as RestNamespaceClient

  it('without write: lists the tables and writes nothing', async () => {
    const client = await connect(KEY)
    const report = await verifyConnection(client, { write: false })
    expect(report).toMatchObject({ ok: true, tables: [], wrote: false })
    expect(report.steps.map((s) => [s.step, s.ok])).toEqual([['list', true]])
    expect(report.capabilities['table.listAll'].supported).toBe(true)
    expect((await client.listTables([])).items).toEqual([])
  })

  it('with write: creates a small table, lists it, and drops it again', async () => {
    const client = await connect(KEY)
    const report = await verifyConnection(client, { write: true, tableName: 'verify_me' })
    expect(report.ok).toBe(true)
    expect(report.steps.map((s) => [s.step, s.ok])).toEqual([
      ['list', true],
      ['create', true],
      ['list-again', true],
      ['drop', true],
    ])
    expect(report.steps[2]!.message).toMatch(/verify_me is listed/)
    expect((await client.listTables([])).items).toEqual([])
  })

  it('with a wrong key: reports the rejection in words and leaks no key', async () => {
    const client = await connect('wrong-key-42424242')
    const report = await verifyConnection(client, { write: true })
    expect(report.ok).toBe(false)
    expect(report.error).toMatchObject({ code: 'unauthenticated' })
    expect(report.error!.message).toMatch(/rejected the API key/)
    expect(report.steps).toHaveLength(1)
    expect(JSON.stringify(report)).not.toContain('wrong-key-42424242')
    expect(JSON.stringify(report)).not.toContain(KEY)
  })
})
