import { readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { arrowStream, sampleTable, serveTemp } from '../support'
import { request, STREAM } from './http'
import * as arrow from 'apache-arrow'

type Server = Awaited<ReturnType<typeof serveTemp>>
const JSON_TYPE = 'application/json'

describe('namespaces and tables share one name space on every server write path', () => {
  let server: Server
  beforeAll(async () => {
    server = await serveTemp()
  })
  afterAll(async () => {
    await server?.close()
  })
  const post = (path: string, body: Uint8Array | string = '{}', type = JSON_TYPE) => request(server.url, 'POST', path, { body, type })

  /** The catalog still works: a fresh namespace, a table in it, a listing, a drop. */
  async function catalogWorks(tag: string): Promise<void> {
    expect((await post(`/v1/namespace/ok_${tag}/create`)).status).toBe(200)
    expect((await post(`/v1/table/ok_${tag}%24t/create`, arrowStream(), STREAM)).status).toBe(200)
    const list = await request(server.url, 'GET', `/v1/namespace/ok_${tag}/table/list`)
    expect(list.json()).toEqual({ tables: ['t'] })
    expect((await post(`/v1/table/ok_${tag}%24t/drop`)).status).toBe(200)
    expect((await post(`/v1/namespace/ok_${tag}/drop`)).status).toBe(200)
  }

  const tableWrites = [
    { name: 'declare', run: (id: string) => post(`/v1/table/${id}/declare`) },
    { name: 'create', run: (id: string) => post(`/v1/table/${id}/create`, arrowStream(), STREAM) },
    { name: 'create (overwrite)', run: (id: string) => post(`/v1/table/${id}/create?mode=overwrite`, arrowStream(), STREAM) },
    { name: 'create (exist_ok)', run: (id: string) => post(`/v1/table/${id}/create?mode=exist_ok`, arrowStream(), STREAM) },
    { name: 'POST /v1/tables/{name}', run: (id: string) => post(`/v1/tables/${id}`, arrowStream(), STREAM), rootOnly: true },
  ]

  for (const [i, write] of tableWrites.entries()) {
    it(`${write.name} refuses a name held by a namespace (409, code 2) and the catalog keeps working`, async () => {
      for (const nested of write.rootOnly ? [false] : [false, true]) {
        const parent = nested ? `p${i}` : ''
        if (nested) expect((await post(`/v1/namespace/${parent}/create`)).status).toBe(200)
        const ns = nested ? `${parent}%24n${i}` : `n${i}`
        expect((await post(`/v1/namespace/${ns}/create`)).status).toBe(200)
        const r = await write.run(ns)
        expect(r.status, r.text).toBe(409)
        expect(r.json().code).toBe(2)
        // The namespace is intact and no table took its name.
        expect((await post(`/v1/namespace/${ns}/describe`)).status).toBe(200)
        expect((await post(`/v1/table/${ns}/describe`)).status).toBe(404)
        expect((await post(`/v1/namespace/${ns}/drop`)).status).toBe(200)
        if (nested) expect((await post(`/v1/namespace/${parent}/drop`)).status).toBe(200)
      }
      await catalogWorks(`w${i}`)
    })
  }

  it('namespace create refuses a name held by a table or a declared table (409, code 5), in every mode', async () => {
    expect((await post('/v1/table/held/create', arrowStream(), STREAM)).status).toBe(200)
    expect((await post('/v1/table/reserved/declare')).status).toBe(200)
    for (const name of ['held', 'reserved']) {
      for (const mode of ['Create', 'ExistOk', 'Overwrite']) {
        const r = await post(`/v1/namespace/${name}/create`, JSON.stringify({ mode }))
        expect(r.status, `${name} ${mode}: ${r.text}`).toBe(409)
        expect(r.json().code).toBe(5)
      }
    }
    expect((await post('/v1/table/held/describe')).status).toBe(200)
    // declare twice: the second is refused and the catalog is not corrupted.
    const again = await post('/v1/table/reserved/declare')
    expect(again.status).toBe(409)
    expect(again.json().code).toBe(5)
    expect((await post('/v1/table/held/drop')).status).toBe(200)
    expect((await post('/v1/table/reserved/drop')).status).toBe(200)
    await catalogWorks('ns')
  })

  for (const damage of ['no data at all', 'garbage version files'] as const) {
    it(`drops a listed table that is damaged (${damage}), removing its row and directory`, async () => {
      const ns = damage === 'no data at all' ? 'd1' : 'd2'
      expect((await post(`/v1/namespace/${ns}/create`)).status).toBe(200)
      expect((await post(`/v1/table/${ns}%24broken/create`, arrowStream(), STREAM)).status).toBe(200)
      const location = (await post(`/v1/table/${ns}%24broken/describe`)).json().location as string
      if (damage === 'no data at all') {
        // The data goes, the directory stays (as a crash or another tool might leave it).
        for (const entry of await readdir(location)) await rm(join(location, entry), { recursive: true, force: true })
        await writeFile(join(location, 'junk.txt'), 'not a dataset')
      } else {
        for (const entry of await readdir(join(location, '_versions'))) await writeFile(join(location, '_versions', entry), 'garbage')
        const d = await post(`/v1/table/${ns}%24broken/describe?load_detailed_metadata=true`)
        expect(d.status).not.toBe(200)
        // Lance's message names the dataset's files; the reply must not.
        expect(d.text).not.toContain(server.root)
      }
      expect((await request(server.url, 'GET', `/v1/namespace/${ns}/table/list`)).json()).toEqual({ tables: ['broken'] })
      const dropped = await post(`/v1/table/${ns}%24broken/drop`)
      expect(dropped.status, dropped.text).toBe(200)
      expect((await request(server.url, 'GET', `/v1/namespace/${ns}/table/list`)).json()).toEqual({ tables: [] })
      expect((await readdir(server.root)).some((e) => location.endsWith(e))).toBe(false)
      expect((await post(`/v1/namespace/${ns}/drop`)).status).toBe(200)
      await catalogWorks(`damaged_${ns}`)
    })
  }
})

describe('errors are 4xx with {error, code} where the client is wrong', () => {
  let server: Server
  beforeAll(async () => {
    server = await serveTemp()
    expect((await request(server.url, 'POST', '/v1/tables/t', { body: arrowStream(), type: STREAM })).status).toBe(200)
  })
  afterAll(async () => {
    await server?.close()
  })
  const post = (path: string, body: Uint8Array | string = '{}', type = JSON_TYPE) => request(server.url, 'POST', path, { body, type })

  it('an insert whose schema differs is 400 code 20, naming the difference, and adds nothing', async () => {
    const other = arrow.tableFromArrays({ id: BigInt64Array.from([9n]), colour: ['red'] })
    const r = await post('/v1/table/t/insert', arrowStream(other), STREAM)
    expect(r.status).toBe(400)
    expect(r.json().code).toBe(20)
    expect(r.json().error).toMatch(/colour/)
    const typed = arrow.tableFromArrays({ id: Float64Array.from([1]), label: ['x'] })
    const r2 = await post('/v1/table/t/insert', arrowStream(typed), STREAM)
    expect(r2.status).toBe(400)
    expect(r2.json()).toMatchObject({ code: 20 })
    expect(r2.json().error).toMatch(/"id"/)
    expect((await post('/v1/table/t/count_rows')).text).toBe(String(sampleTable().numRows))
  })

  it('a 250-character name is 400 code 13 with no server path in error or detail', async () => {
    const long = 'x'.repeat(250)
    for (const [path, body, type] of [
      [`/v1/tables/${long}`, arrowStream(), STREAM],
      [`/v1/table/${long}/create`, arrowStream(), STREAM],
      [`/v1/table/${long}/declare`, '{}', JSON_TYPE],
      [`/v1/namespace/${long}/create`, '{}', JSON_TYPE],
    ] as const) {
      const r = await post(path, body, type)
      expect(r.status, r.text).toBe(400)
      expect(r.json().code).toBe(13)
      expect(r.text).not.toContain(server.root)
      expect(r.text).not.toMatch(/\/tmp\//)
    }
  })

  it('malformed percent-encoding in the path: 400 with integer code 13 after auth; 401 code 16 without a key', async () => {
    const r = await request(server.url, 'POST', '/v1/table/%E0%A4%A/describe', { body: '{}', type: JSON_TYPE })
    expect(r.status).toBe(400)
    expect(r.json()).toMatchObject({ code: 13 })
    const anon = await request(server.url, 'POST', '/v1/table/%E0%A4%A/describe', { body: '{}', type: JSON_TYPE, key: null })
    expect(anon.status).toBe(401)
    expect(anon.json()).toMatchObject({ code: 16 })
  })

  it('wrong-typed fields are refused with 400 code 13, never ignored', async () => {
    for (const [path, body] of [
      ['/v1/table/t/query', { k: 5, filter: ['id > 1'] }],
      ['/v1/table/t/query', { k: '5' }],
      ['/v1/table/t/query', { k: 5, columns: { column_names: 'id' } }],
      ['/v1/table/t/query', { k: 5, with_row_id: 'yes' }],
      ['/v1/table/t/count_rows', { predicate: 1 }],
      ['/v1/table/t/rename', { new_table_name: 7 }],
      ['/v1/table/t/restore', { version: '1' }],
      ['/v1/namespace/n/create', { properties: { a: 1 } }],
      ['/v1/namespace/n/drop', { mode: ['Skip'] }],
    ] as const) {
      const r = await post(path, JSON.stringify(body))
      expect(r.status, `${path} ${JSON.stringify(body)}: ${r.text}`).toBe(400)
      expect(r.json().code).toBe(13)
    }
  })

  it('a JSON body over the limit is 413 code 13 (Arrow routes keep the large limit)', async () => {
    const big = JSON.stringify({ k: 1, pad: 'x'.repeat(2 * 1024 * 1024) })
    const r = await post('/v1/table/t/query', big)
    expect(r.status).toBe(413)
    expect(r.json().code).toBe(13)
  })
})
