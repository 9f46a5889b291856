import { symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildCatalog, makeTempDir, removeDir } from '../helpers/catalog'
import { answer, callTool, openDirectly, stdioClient } from './fixture'

// The write tools exist only with --allow-writes, are marked destructive, and write through the app's use-cases
// (namespaces/create, import/start: the name claim, staged publication, the journalled append).
describe('MCP server over stdio: the write tools', () => {
  let root: string
  let files: string
  let outside: string
  let client: Client

  beforeAll(async () => {
    root = await makeTempDir('lcb-mcp-w-')
    files = await makeTempDir('lcb-mcp-files-')
    outside = await makeTempDir('lcb-mcp-outside-')
    await buildCatalog(root, { tables: [{ namespace: [], name: 'things', rows: 20, sample: { dimension: 0 } }] })
    await writeFile(join(files, 'people.csv'), 'name,age\nada,36\ngrace,45\nlinus,28\n')
    await writeFile(join(outside, 'secret.csv'), 'key\nhunter2\n')
    // A link inside the allowed folder that points out of it is refused too (the real path decides).
    await symlink(join(outside, 'secret.csv'), join(files, 'escape.csv'))
    client = await stdioClient(['--root', root, '--allow-writes', '--import-from', files])
  }, 120_000)
  afterAll(async () => {
    await client?.close()
    for (const dir of [root, files, outside]) await removeDir(dir)
  })

  it('lists the write tools, marked destructive', async () => {
    const { tools } = await client.listTools()
    for (const name of ['create_namespace', 'import_file', 'add_rows', 'delete_rows']) {
      const tool = tools.find((t) => t.name === name)
      expect(tool?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false })
    }
  })

  it('keeps every tool\'s name and arguments as documented (the user guide lists them: change both together)', async () => {
    const { tools } = await client.listTools()
    const table = ['namespace', 'table']
    const rows = [...table, 'columns', 'filter', 'version', 'full_vectors', 'max_cell_chars', 'max_bytes']
    const shapes = Object.fromEntries(tools.map((t) => [t.name, Object.keys(t.inputSchema.properties ?? {}).sort()]))
    expect(shapes).toEqual({
      list_namespaces: ['limit', 'namespace', 'page_token'],
      list_tables: ['limit', 'namespace', 'page_token'],
      describe_table: [...table, 'version'].sort(),
      count_rows: [...table, 'filter', 'version'].sort(),
      query_rows: [...rows, 'sort', 'offset', 'limit'].sort(),
      search_text: [...rows, 'query', 'search_columns', 'k'].sort(),
      search_similar: [...rows, 'column', 'vector', 'like_row', 'metric', 'k', 'exact'].sort(),
      profile_columns: [...table, 'filter', 'version', 'columns', 'max_bytes'].sort(),
      run_sql: ['sql', 'offset', 'limit', 'full_vectors', 'max_cell_chars', 'max_bytes'].sort(),
      create_namespace: ['namespace'],
      import_file: [...table, 'path', 'mode'].sort(),
      add_rows: [...table, 'rows'].sort(),
      delete_rows: [...table, 'filter'].sort(),
    })
    // The namespace defaults to the root everywhere but where it names what is made.
    for (const tool of tools.filter((t) => t.name !== 'create_namespace')) expect(tool.inputSchema.required ?? [], tool.name).toEqual(expect.not.arrayContaining(['namespace']))
  })

  it('creates a namespace (refusing one that exists, in words)', async () => {
    await answer(client, 'create_namespace', { namespace: ['made'] })
    const db = await lancedb.connectNamespace('dir', { root })
    expect((await db.listNamespaces([])).namespaces).toContain('made')
    const again = await callTool(client, 'create_namespace', { namespace: ['made'] })
    expect(again.ok).toBe(false)
    if (!again.ok) expect(again.text).toMatch(/exists/)
  })

  it('imports a file from an allowed folder, and refuses paths outside it', async () => {
    const made = await answer(client, 'import_file', { namespace: ['made'], table: 'people', path: join(files, 'people.csv') })
    expect(made).toMatchObject({ table: 'people', namespace: ['made'], rows: 3, mode: 'create' })
    const people = await openDirectly(root, 'people', ['made'])
    expect((await people.query().toArray()).map((r) => r.name)).toEqual(['ada', 'grace', 'linus'])
    for (const path of [join(outside, 'secret.csv'), join(files, 'escape.csv'), join(files, '..', 'x.csv'), 'people.csv']) {
      const refused = await callTool(client, 'import_file', { table: 'stolen', path })
      expect(refused.ok, path).toBe(false)
      if (!refused.ok) expect(refused.text).toMatch(/outside the folders|absolute|No file/)
    }
    expect(await (await lancedb.connectNamespace('dir', { root })).tableNames()).not.toContain('stolen')
  })

  it('adds rows as one append, all or none', async () => {
    const before = await (await openDirectly(root, 'things')).countRows()
    const added = await answer(client, 'add_rows', {
      table: 'things',
      rows: [
        { id: 100, label: 'new-a', score: 1.5, note: null },
        { id: 101, label: 'new-b', score: 2.5, note: 'x' },
      ],
    })
    expect(added).toMatchObject({ table: 'things', mode: 'append', rows: before + 2 })
    const things = await openDirectly(root, 'things')
    expect(await things.countRows()).toBe(before + 2)
    expect((await things.query().where("label = 'new-b'").toArray())[0]?.note).toBe('x')
    // A row the table cannot take (a column it lacks) writes nothing, and says why.
    const refused = await callTool(client, 'add_rows', { table: 'things', rows: [{ id: 102, label: 'bad', score: 1, note: null, extra: 1 }] })
    expect(refused.ok).toBe(false)
    if (!refused.ok) expect(refused.text).toMatch(/extra/)
    expect(await (await openDirectly(root, 'things')).countRows()).toBe(before + 2)
  })


  it('deletes the rows a filter matches, as a new version; a filter that does not parse deletes nothing', async () => {
    const things = await openDirectly(root, 'things')
    const before = await things.countRows()
    const matching = await things.countRows('id >= 10 AND id < 15')
    const done = await answer(client, 'delete_rows', { table: 'things', filter: 'id >= 10 AND id < 15' })
    expect(done).toMatchObject({ table: 'things', deleted: matching })
    const after = await openDirectly(root, 'things')
    expect(await after.countRows()).toBe(before - matching)
    expect(await after.countRows('id >= 10 AND id < 15')).toBe(0)
    expect(done.version).toBe(await after.version())
    for (const filter of ['id >', 'ghost = 1', '']) {
      const refused = await callTool(client, 'delete_rows', { table: 'things', filter })
      expect(refused.ok, filter).toBe(false)
    }
    expect(await (await openDirectly(root, 'things')).countRows()).toBe(before - matching)
  })
})
