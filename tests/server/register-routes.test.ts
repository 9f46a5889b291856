import { existsSync } from 'node:fs'
import { mkdtemp, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as arrow from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { lifecycleRows } from '../core/lifecycle/contract'
import { OpenApiResponses, specPath } from './openapi'
import { KEY, serveTemp } from './support'

type Server = Awaited<ReturnType<typeof serveTemp>>

/**
 * `register` / `deregister` on our server over a directory catalog: deregister keeps the data and answers where
 * it is; register brings a dataset directory inside the root back as a table; locations outside the root and
 * names already taken are refused with the contract's codes. Replies are checked against the OpenAPI document.
 */
describe('server register and deregister', () => {
  let server: Server
  let outside: string
  const spec = specPath()
  const responses = spec ? new OpenApiResponses(spec) : null
  const problems: string[] = []

  const post = async (template: string, path: string, body: unknown, table?: arrow.Table) => {
    const headers: Record<string, string> = { 'x-api-key': KEY, 'content-type': table ? 'application/vnd.apache.arrow.stream' : 'application/json' }
    const r = await fetch(`${server.url}${path}`, { method: 'POST', headers, body: table ? arrow.tableToIPC(table, 'stream') : JSON.stringify(body ?? {}) })
    const text = await r.text()
    const json = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>)
    if (responses) problems.push(...responses.check(template, 'POST', r.status, json).map((p) => `${path}: ${p}`))
    if (r.status >= 400) expect(text).not.toContain(server.root)
    return { status: r.status, json: json ?? {} }
  }
  const register = (id: string, body: unknown) => post('/v1/table/{id}/register', `/v1/table/${encodeURIComponent(id)}/register`, body)
  const deregister = (id: string) => post('/v1/table/{id}/deregister', `/v1/table/${encodeURIComponent(id)}/deregister`, {})
  const count = async (id: string) => (await post('/v1/table/{id}/count_rows', `/v1/table/${encodeURIComponent(id)}/count_rows`, {})).json
  const exists = async (id: string) => (await post('/v1/table/{id}/exists', `/v1/table/${encodeURIComponent(id)}/exists`, {})).status

  beforeAll(async () => {
    server = await serveTemp()
    outside = await mkdtemp(join(tmpdir(), 'lcb-register-outside-'))
    expect((await post('/v1/namespace/{id}/create', '/v1/namespace/ns/create', {})).status).toBe(200)
    expect((await post('/v1/table/{id}/create', `/v1/table/${encodeURIComponent('ns$t')}/create`, null, lifecycleRows(7))).status).toBe(200)
    expect((await post('/v1/table/{id}/create', '/v1/table/top/create', null, lifecycleRows(5))).status).toBe(200)
  })
  afterAll(async () => {
    await server?.close()
    await rm(outside, { recursive: true, force: true })
  })

  it('deregisters a namespace table (the data stays) and registers it again, under another name too', async () => {
    const gone = await deregister('ns$t')
    expect(gone.status).toBe(200)
    const location = gone.json.location as string
    expect(location).not.toContain(server.root)
    expect(existsSync(join(server.root, location, '_versions'))).toBe(true)
    expect(await exists('ns$t')).toBe(404)
    expect((await deregister('ns$t')).json.code).toBe(4)

    const back = await register('ns$again', { location })
    expect(back.status).toBe(200)
    expect(back.json.location).toBe(location)
    expect(await count('ns$again')).toBe(7)
    // The same data cannot be two tables.
    const twice = await register('ns$third', { location })
    expect([twice.status, twice.json.code]).toEqual([409, 5])
  })

  it('deregisters a root table by moving its directory aside, and registers it back', async () => {
    const gone = await deregister('top')
    expect(gone.status).toBe(200)
    expect(gone.json.location).toBe('.deregistered/top.lance')
    expect(await exists('top')).toBe(404)
    const listed = await fetch(`${server.url}/v1/namespace/%24/table/list`, { headers: { 'x-api-key': KEY } }).then((r) => r.json() as Promise<{ tables: string[] }>)
    expect(listed.tables).not.toContain('top')
    const back = await register('top', { location: gone.json.location })
    expect([back.status, back.json.location]).toEqual([200, 'top.lance'])
    expect(await count('top')).toBe(5)
  })

  it('refuses locations outside the root, taken names, missing namespaces and non-datasets', async () => {
    const codes = async (id: string, body: unknown) => {
      const r = await register(id, body)
      return [r.status, r.json.code]
    }
    expect(await codes('ns$x', { location: '../elsewhere' })).toEqual([400, 13])
    expect(await codes('ns$x', { location: outside })).toEqual([400, 13])
    await symlink(outside, join(server.root, 'sneaky'))
    expect(await codes('ns$x', { location: 'sneaky' })).toEqual([400, 13])
    expect(await codes('ns$x', { location: 's3://bucket/t.lance' })).toEqual([400, 13])
    expect(await codes('ns$x', { location: '__manifest' })).toEqual([400, 13])
    expect(await codes('ns$x', { location: 'missing-dir' })).toEqual([400, 13])
    expect(await codes('ns$x', {})).toEqual([400, 13])
    // Names held by a table (5) or a namespace (2); a namespace that does not exist (1).
    const gone = await deregister('ns$again')
    expect(await codes('top', { location: gone.json.location })).toEqual([409, 5])
    expect(await codes('ns', { location: gone.json.location })).toEqual([409, 2])
    expect(await codes('ghost$x', { location: gone.json.location })).toEqual([404, 1])
    expect(await codes('ns$x', { location: gone.json.location, mode: 'Overwrite' })).toEqual([406, 0])
    expect(problems).toEqual([])
  })
})
