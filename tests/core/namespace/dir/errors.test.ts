import { chmod, mkdir, readdir, writeFile } from 'node:fs/promises'
import { existsSync } from 'node:fs'
import { execFile } from 'node:child_process'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { buildSync } from 'esbuild'
import { connectNamespace as lanceConnectNamespace } from '@lancedb/lancedb'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DirNamespaceClient } from '../../../../src/core/namespace/dir'
import { buildNestedCatalog, corruptTable, makeTempDir, removeDir, sampleTable, snapshotTree, diffSnapshots } from '../../../helpers/catalog'
import { appError } from '../../../helpers/errors'

const run = promisify(execFile)


describe('opening a directory that is not a catalog', () => {
  let base: string
  beforeAll(async () => {
    base = await makeTempDir()
  })
  afterAll(() => removeDir(base))

  it('a missing directory is not_found, with a hint, and is not created', async () => {
    const root = join(base, 'missing')
    const error = await appError(DirNamespaceClient.open(root))
    expect(error.code).toBe('not_found')
    expect(error.message).toBe(`Directory ${root} does not exist`)
    expect(error.hint).toBe('Choose another directory')
    expect(existsSync(root)).toBe(false)
  })

  it('a file is not_a_catalog', async () => {
    const file = join(base, 'file.txt')
    await writeFile(file, 'hello')
    const error = await appError(DirNamespaceClient.open(file))
    expect(error.code).toBe('not_a_catalog')
    expect(error.message).toContain('is a file, not a directory')
  })

  it('an empty directory is not_a_catalog and stays empty (lancedb would create __manifest in it)', async () => {
    const root = join(base, 'empty')
    await mkdir(root)
    const error = await appError(DirNamespaceClient.open(root))
    expect(error.code).toBe('not_a_catalog')
    expect(error.message).toContain('is empty: there is no Lance catalog to browse')
    expect(error.hint).toBeTruthy()
    expect(await readdir(root)).toEqual([])
  })

  it('a directory of other files is not_a_catalog', async () => {
    const root = join(base, 'photos')
    await mkdir(root)
    await writeFile(join(root, 'a.jpg'), 'x')
    await mkdir(join(root, 'sub'))
    const error = await appError(DirNamespaceClient.open(root))
    expect(error.code).toBe('not_a_catalog')
    expect(error.message).toContain('does not hold a Lance catalog (no __manifest and no *.lance tables)')
    expect((await readdir(root)).sort()).toEqual(['a.jpg', 'sub'])
  })

  it('an unreadable directory is permission_denied', async () => {
    const root = join(base, 'locked')
    await mkdir(root, { mode: 0o700 })
    if (process.getuid?.() !== 0) {
      await chmod(root, 0o000)
      try {
        const error = await appError(DirNamespaceClient.open(root))
        expect(error.code).toBe('permission_denied')
        expect(error.message).toBe(`Permission denied reading ${root}`)
      } finally {
        await chmod(root, 0o755)
      }
      return
    }
    // root reads everything, so check the directory as "nobody" in a child process (setpriv, util-linux).
    // The checks that run before lancedb is touched (inspectRoot) are bundled into one file next to the
    // catalog, because "nobody" may not be allowed into the checkout (a fresh clone can be 0700).
    await chmod(base, 0o755)
    const probe = join(base, 'probe.cjs')
    const entry = join(base, 'probe-entry.ts')
    await writeFile(
      entry,
      `import { inspectRoot } from ${JSON.stringify(resolve('src/core/namespace/dir/root.ts'))}
inspectRoot(process.argv[2]).then(() => console.log('{"opened":true}'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message, hint: e.hint })))`,
    )
    buildSync({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: probe, logLevel: 'silent' })
    await chmod(probe, 0o644)
    const { stdout } = await run('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', '--', process.execPath, probe, root], { cwd: base })
    const answer = JSON.parse(stdout.trim().split('\n').at(-1)!) as { code: string; message: string; hint: string }
    expect(answer).toEqual({
      code: 'permission_denied',
      message: `Permission denied reading ${root}`,
      hint: 'Check the folder permissions, or choose another directory',
    })
  })
})

describe('a catalog of bare *.lance tables (no __manifest)', () => {
  let root: string
  beforeAll(async () => {
    root = join(await makeTempDir(), 'legacy')
    await mkdir(root)
    // The older layout: tables as <name>.lance at the root, no __manifest.
    const db = await lanceConnectNamespace('dir', { root, manifestEnabled: false })
    await db.createTable('one', sampleTable(12))
    await db.createTable('two', sampleTable(3))
    db.close()
  })
  afterAll(() => removeDir(join(root, '..')))

  it('opens and reads without creating __manifest or changing any file', async () => {
    expect((await readdir(root)).sort()).toEqual(['one.lance', 'two.lance'])
    const before = await snapshotTree(root)
    const client = await DirNamespaceClient.open(root)
    expect(client.layout).toBe('tables-only')
    expect(await client.listNamespaces([])).toEqual({ items: [] })
    expect(await client.listTables([])).toEqual({ items: ['one', 'two'] })
    expect((await client.describeTable({ namespace: [], name: 'one' })).rowCount).toBe(12)
    expect(tableFromIPC(await client.readPage({ namespace: [], name: 'one' }, { offset: 10, limit: 10 })).numRows).toBe(2)
    expect((await appError(client.listTables(['child']))).code).toBe('not_found')
    expect((await appError(client.describeTable({ namespace: [], name: 'three' }))).code).toBe('not_found')
    await client.close()
    expect(diffSnapshots(before, await snapshotTree(root))).toEqual([])
  })

  it('refuses child namespaces with a clear sentence', async () => {
    const client = await DirNamespaceClient.open(root)
    try {
      const error = await appError(client.createNamespace(['child']))
      expect(error.code).toBe('unsupported')
      expect(error.message).toBe('This directory has no __manifest, so it holds no child namespaces (only tables at its root)')
    } finally {
      await client.close()
    }
  })
})

describe('corrupted tables', () => {
  let root: string
  let client: DirNamespaceClient
  const id = (name: string) => ({ namespace: ['a'], name })

  beforeAll(async () => {
    root = join(await makeTempDir(), 'catalog')
    await buildNestedCatalog(root)
    const writer = await DirNamespaceClient.open(root)
    for (const name of ['no_data', 'bad_manifest', 'no_dir']) await writer.createTable(id(name), sampleTable(30))
    await writer.close()
    await corruptTable(root, id('no_data'), 'delete-data')
    await corruptTable(root, id('bad_manifest'), 'garble-manifest')
    await corruptTable(root, id('no_dir'), 'delete-dir')
    client = await DirNamespaceClient.open(root)
  })
  afterAll(async () => {
    await client.close()
    await removeDir(join(root, '..'))
  })

  it('a table whose data files were deleted is corrupt when read', async () => {
    const error = await appError(client.readPage(id('no_data'), { offset: 0, limit: 10 }))
    expect(error.code).toBe('corrupt')
    expect(error.message).toBe('Table a/no_data is damaged: its files cannot be read')
    expect(error.hint).toBeTruthy()
    expect(error.detail).toContain('not found')
  })

  it('a table whose version manifests are garbled is corrupt', async () => {
    const error = await appError(client.describeTable(id('bad_manifest')))
    expect(error.code).toBe('corrupt')
    expect(error.message).toContain('Table a/bad_manifest is damaged')
  })

  it('a table listed in the catalog whose folder is gone is corrupt, not missing', async () => {
    expect((await client.listTables(['a'])).items).toContain('no_dir')
    const error = await appError(client.describeTable(id('no_dir')))
    expect(error.code).toBe('corrupt')
    expect(error.message).toBe('Table a/no_dir is damaged: its files are missing')
  })

  it('the rest of the catalog keeps working', async () => {
    expect((await client.describeTable(id('alpha'))).rowCount).toBe(20)
    expect(tableFromIPC(await client.readPage(id('alpha'), { offset: 0, limit: 5 })).numRows).toBe(5)
  })

  it('an unreadable __manifest is reported as corrupt when opening', async () => {
    const copy = join(root, '..', 'bad-manifest-catalog')
    await buildNestedCatalog(copy)
    const versions = join(copy, '__manifest', '_versions')
    for (const file of await readdir(versions)) if (file.endsWith('.manifest')) await writeFile(join(versions, file), 'garbage')
    // lancedb would silently fall back to listing the root directory and show an empty tree.
    const error = await appError(DirNamespaceClient.open(copy))
    expect(error.code).toBe('corrupt')
    expect(error.message).toBe("The catalog's __manifest cannot be read, so its namespaces are unavailable")
  })
})
