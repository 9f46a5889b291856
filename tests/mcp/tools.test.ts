import { basename } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { removeDir } from '../helpers/catalog'
import { answer, callTool, fixtureCatalog, openDirectly, stdioClient } from './fixture'

// `npm run mcp -- --root <dir>` driven by the SDK's own client over stdio; every answer is checked against lancedb
// reading the same table directly.
describe('MCP server over stdio: the read tools', () => {
  let root: string
  let client: Client
  let things: lancedb.Table

  beforeAll(async () => {
    root = await fixtureCatalog()
    things = await openDirectly(root, 'things')
    client = await stdioClient(['--root', root])
  }, 120_000)
  afterAll(async () => {
    await client?.close()
    await removeDir(root)
  })

  it('lists the read tools only, each read-only, and no write tool without --allow-writes', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(['count_rows', 'describe_table', 'list_namespaces', 'list_tables', 'profile_columns', 'query_rows', 'run_sql', 'search_similar', 'search_text'])
    for (const tool of tools) expect(tool.annotations?.readOnlyHint).toBe(true)
    const refused = await callTool(client, 'add_rows', { table: 'things', rows: [{ id: 1 }] })
    expect(refused.ok).toBe(false)
    expect(await things.countRows()).toBe(300)
  })

  it('lists namespaces and tables as lancedb does', async () => {
    const db = (await import('@lancedb/lancedb')).connectNamespace
    const direct = await db('dir', { root })
    expect((await answer(client, 'list_tables', {})).tables).toEqual((await direct.tableNames()).sort())
    expect((await answer(client, 'list_namespaces', {})).namespaces).toEqual(['ns'])
    expect((await answer(client, 'list_tables', { namespace: ['ns'] })).tables).toEqual(['inner'])
    const paged = await answer(client, 'list_tables', { limit: 1 })
    expect(paged.tables).toHaveLength(1)
    expect(paged.next_page_token).toBeTruthy()
    const rest = await answer(client, 'list_tables', { page_token: paged.next_page_token })
    expect([...paged.tables, ...rest.tables].sort()).toEqual(['long', 'plain', 'things'])
  })

  it('describes a table: schema, rows, version and indexes', async () => {
    const info = await answer(client, 'describe_table', { table: 'things' })
    expect(info.rows).toBe(await things.countRows())
    expect(info.version).toBe(await things.version())
    expect(info.columns.map((c: { name: string }) => c.name)).toEqual((await things.schema()).fields.map((f) => f.name))
    expect(info.columns.find((c: { name: string }) => c.name === 'vector').vectorDimension).toBe(8)
    expect(info.indexes.map((i: { columns: string[] }) => i.columns[0]).sort()).toEqual((await things.listIndices()).map((i) => i.columns[0]).sort())
  })

  it('counts rows with and without a filter, naming the version', async () => {
    const all = await answer(client, 'count_rows', { table: 'things' })
    expect(all.count).toBe(await things.countRows())
    const some = await answer(client, 'count_rows', { table: 'things', filter: 'score > 100 AND note IS NOT NULL' })
    expect(some.count).toBe(await things.countRows('score > 100 AND note IS NOT NULL'))
    expect(some.version).toBe(await things.version())
  })

  it('reads rows: columns, filter, sort, offset and limit, as lancedb reads them', async () => {
    const direct = (await things.query().where('score >= 50').select(['id', 'score']).toArray()).map((r) => Number(r.id)).sort((a, b) => b - a)
    const first = await answer(client, 'query_rows', { table: 'things', columns: ['id', 'score'], filter: 'score >= 50', sort: [{ column: 'id', direction: 'desc' }], limit: 7 })
    expect(first.rows.map((r: { id: number }) => r.id)).toEqual(direct.slice(0, 7))
    expect(Object.keys(first.rows[0])).toEqual(['id', 'score'])
    expect(first.cut.next_offset).toBe(7)
    const next = await answer(client, 'query_rows', { table: 'things', columns: ['id'], filter: 'score >= 50', sort: [{ column: 'id', direction: 'desc' }], offset: 7, limit: 3, version: first.version })
    expect(next.rows.map((r: { id: number }) => r.id)).toEqual(direct.slice(7, 10))
    const last = await answer(client, 'query_rows', { table: 'things', columns: ['id'], offset: 295, limit: 20 })
    expect(last.rows).toHaveLength(5)
    expect(last.cut).toBeUndefined()
  })

  it('searches full text as lancedb does', async () => {
    const direct = (await (things.search('row-42', 'fts') as lancedb.Query).limit(5).toArray()).map((r) => Number(r.id))
    const found = await answer(client, 'search_text', { table: 'things', query: 'row-42', k: 5, columns: ['id', 'label'] })
    expect(found.rows.map((r: { id: number }) => r.id)).toEqual(direct)
    expect(found.rows[0]).toHaveProperty('_score')
  })

  it('finds similar rows by vector and by row, exact or indexed, and says which', async () => {
    const vector = Array.from({ length: 8 }, (_, k) => 10 + k / 1000)
    const exactDirect = (await things.vectorSearch(vector).distanceType('l2').bypassVectorIndex().limit(4).toArray()).map((r) => Number(r.id))
    const exact = await answer(client, 'search_similar', { table: 'things', column: 'vector', vector, k: 4, exact: true, columns: ['id'] })
    expect(exact.rows.map((r: { id: number }) => r.id)).toEqual(exactDirect)
    expect(exact.search).toMatch(/^exact/)
    const indexed = await answer(client, 'search_similar', { table: 'things', column: 'vector', like_row: 10, k: 4, columns: ['id'] })
    expect(indexed.search).toMatch(/^indexed/)
    expect(indexed.rows[0].id).toBe(10)
    expect(indexed.query.vector.first[0]).toBe(10)
    const plain = await answer(client, 'search_similar', { table: 'plain', column: 'vector', like_row: 10, k: 2, columns: ['id'] })
    expect(plain.search).toMatch(/^exact .*no vector index/)
  })

  it("profiles columns with the Summary's numbers", async () => {
    const scores = (await things.query().select(['score']).toArray()).map((r) => Number(r.score))
    const profile = await answer(client, 'profile_columns', { table: 'things', columns: ['score', 'note'] })
    const score = profile.columns.find((c: { name: string }) => c.name === 'score')
    expect(score.stats.min).toBe(Math.min(...scores))
    expect(score.stats.max).toBe(Math.max(...scores))
    expect(score.stats.mean).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length)
    expect(profile.columns.find((c: { name: string }) => c.name === 'note').nulls).toBe(await things.countRows('note IS NULL'))
    expect(profile.version).toBe(await things.version())
  })

  it('bounds every answer: vectors summarised unless asked, bytes cut with the offset to go on from', async () => {
    const summarised = await answer(client, 'query_rows', { table: 'things', columns: ['vector'], offset: 3, limit: 1 })
    expect(summarised.rows[0].vector.vector).toMatchObject({ dimension: 8, first: [3, 3.001, 3.002, 3.003, 3.004, 3.005, 3.006, 3.007].map((x) => Math.fround(x)) })
    expect(summarised.cells_cut).toMatch(/full_vectors/)
    const whole = await answer(client, 'query_rows', { table: 'things', columns: ['vector'], offset: 3, limit: 1, full_vectors: true })
    expect(whole.rows[0].vector).toHaveLength(8)
    const cut = await answer(client, 'query_rows', { table: 'things', limit: 500, max_bytes: 2_000 })
    expect(cut.returned).toBeGreaterThan(0)
    expect(cut.returned).toBeLessThan(300)
    expect(JSON.stringify(cut.rows).length).toBeLessThan(2_000)
    expect(cut.cut.reason).toMatch(/max_bytes/)
    expect(cut.cut.next_offset).toBe(cut.returned)
    const long = await answer(client, 'query_rows', { table: 'long', limit: 2 })
    expect(long.rows[0].text).toEqual({ cut: 'a'.repeat(2_000), chars: 5_000 })
    expect(long.cells_cut).toMatch(/max_cell_chars/)
    const wholeText = await answer(client, 'query_rows', { table: 'long', limit: 2, max_cell_chars: 10_000, max_bytes: 6_000 })
    expect(wholeText.rows.map((r: { text: string }) => r.text)).toEqual(['a'.repeat(5_000)])
    expect(wholeText.cut.next_offset).toBe(1)
    const tooLarge = await answer(client, 'query_rows', { table: 'long', limit: 1, max_cell_chars: 10_000, max_bytes: 1_000 })
    expect(tooLarge.rows[0].row_too_large.bytes).toBeGreaterThan(5_000)
    expect(JSON.stringify(tooLarge).length).toBeLessThan(2_000)
    const shortText = await answer(client, 'query_rows', { table: 'things', columns: ['label'], offset: 123, limit: 1, max_cell_chars: 16 })
    expect(shortText.rows[0].label).toBe('row-123')
  })

  it('answers hostile arguments in words, and keeps serving', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['query_rows', { table: 'things', limit: 1_000_000 }, /500/],
      ['query_rows', { table: 'things', filter: 'score >' }, /filter/i],
      ['query_rows', { table: 'things', filter: 'nosuchcolumn = 1' }, /nosuchcolumn/],
      ['query_rows', { table: '../../etc' }, /table/],
      ['query_rows', { namespace: ['..'], table: 'things' }, /namespace|not allowed/],
      ['query_rows', { table: 'things', version: 999 }, /version/i],
      ['query_rows', { table: 'nope' }, /nope|not found|does not exist/i],
      ['query_rows', { table: 'things', limit: 'ten' }, /limit/],
      ['count_rows', { table: 42 }, /table/],
      ['search_similar', { table: 'things', column: 'vector', vector: [1, 2], k: 2 }, /dimension|8/],
      ['search_similar', { table: 'things', column: 'vector', k: 2 }, /exactly one of vector or like_row/],
      ['search_similar', { table: 'things', column: 'vector', like_row: 10_000 }, /no row at offset 10000/],
      ['profile_columns', { table: 'things', columns: ['ghost'] }, /ghost/],
    ]
    for (const [tool, args, words] of cases) {
      const result = await callTool(client, tool, args)
      expect(result.ok, `${tool} ${JSON.stringify(args)}`).toBe(false)
      if (!result.ok) {
        expect(result.text, `${tool} ${JSON.stringify(args)}`).toMatch(words)
        expect(result.text).not.toMatch(/internal|Unexpected error/)
      }
    }
    expect((await answer(client, 'count_rows', { table: 'things' })).count).toBe(300)
  })

  it('serves each table as a resource with its schema and a sample, and the explore_table prompt', async () => {
    const catalog = basename(root)
    const { resources } = await client.listResources()
    expect(resources.map((r) => r.uri).sort()).toEqual([`lance://${catalog}/long`, `lance://${catalog}/ns/inner`, `lance://${catalog}/plain`, `lance://${catalog}/things`])
    const read = await client.readResource({ uri: `lance://${catalog}/ns/inner` })
    const body = JSON.parse((read.contents[0] as { text: string }).text)
    expect(body).toMatchObject({ table: 'inner', namespace: ['ns'], rows_in_table: 10, sample_rows: 5 })
    expect(body.rows.map((r: { id: number }) => r.id)).toEqual([0, 1, 2, 3, 4])
    await expect(client.readResource({ uri: `lance://${catalog}/ns/a%2Fb` })).rejects.toThrow(/does not name a table/)
    await expect(client.readResource({ uri: `lance://${catalog}/ns/%2E%2E` })).rejects.toThrow(/not found|does not name a table/)
    await expect(client.readResource({ uri: 'lance://elsewhere/things' })).rejects.toThrow(/not found|Not a table of this catalog/)
    const prompt = await client.getPrompt({ name: 'explore_table', arguments: { table: 'inner', namespace: 'ns' } })
    const text = (prompt.messages[0]!.content as { text: string }).text
    expect(text).toMatch(/describe_table[\s\S]*profile_columns[\s\S]*query_rows/)
    expect(text).toContain(`lance://${catalog}/ns/inner`)
  })

  it('ends when its client goes away (closes its stdin) in the middle of a call', async () => {
    const { spawn } = await import('node:child_process')
    const { join } = await import('node:path')
    const { repo } = await import('./fixture')
    const child = spawn(process.execPath, [join(repo, 'node_modules/tsx/dist/cli.mjs'), join(repo, 'src/mcp/cli.ts'), '--root', root], { cwd: repo, stdio: ['pipe', 'pipe', 'ignore'] })
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    // Only so a server that never ends cannot hang the run: the assertion below then fails (killed: exit code null).
    const guard = setTimeout(() => child.kill('SIGKILL'), 60_000)
    let out = ''
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()))
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`)
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lcb-test', version: '1' } } })
    for (let i = 0; i < 600 && !out.includes('"id":1'); i += 1) await new Promise((resolve) => setTimeout(resolve, 50))
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'profile_columns', arguments: { table: 'plain' } } })
    // No signal: the client only closes the pipe, as an assistant that quits does.
    child.stdin.end()
    expect(await exited).toBe(0)
    clearTimeout(guard)
  })
})
