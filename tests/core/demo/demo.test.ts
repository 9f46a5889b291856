import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import { DEMO_TABLES, IMAGE_ROWS, PHOTO_ROWS, ensureDemoCatalog, imageKindOf } from '../../../src/core/demo'
import { DirNamespaceClient } from '../../../src/core/namespace/dir'
import { makeTempDir, removeDir } from '../../helpers/catalog'

describe('demo catalog', () => {
  let base: string
  let root: string
  let client: DirNamespaceClient

  beforeAll(async () => {
    base = await makeTempDir()
    root = join(base, 'demo-catalog')
    // A leftover of an interrupted run must not survive.
    await mkdir(join(base, '.demo-catalog.building-stale'))
    const [a, b] = await Promise.all([ensureDemoCatalog(root), ensureDemoCatalog(root)])
    expect(a).toEqual({ root, created: true })
    expect(b).toBe(a) // one build for concurrent callers
    client = await DirNamespaceClient.open(root)
  })
  afterAll(async () => {
    await client.close()
    await removeDir(base)
  })

  it('leaves only the catalog next to it (no staging directories)', async () => {
    expect(await readdir(base)).toEqual(['demo-catalog'])
  })

  it('is idempotent', async () => {
    expect(await ensureDemoCatalog(root)).toEqual({ root, created: false })
  })

  it('nests namespaces three deep', async () => {
    expect((await client.listNamespaces([])).items).toEqual(['analytics', 'demo', 'samples'])
    expect((await client.listNamespaces(['demo'])).items).toEqual(['images'])
    expect((await client.listNamespaces(['demo', 'images'])).items).toEqual(['2024'])
    expect((await client.listTables(['demo', 'images', '2024'])).items).toEqual(['photos'])
  })

  it('has a 100,000-row photos table with every common column kind', async () => {
    const d = await client.describeTable(DEMO_TABLES.photos)
    expect(d.rowCount).toBe(PHOTO_ROWS)
    expect(d.fields.map((f) => [f.name, f.type, f.nullable])).toEqual([
      ['id', 'Int64', false],
      ['title', 'Utf8', false],
      ['score', 'Float64', false],
      ['caption', 'Utf8', true],
      ['taken_at', 'Timestamp<MICROSECOND, UTC>', false],
      ['embedding', 'FixedSizeList<Float32>[128]', false],
    ])
    const last = tableFromIPC(await client.readPage(DEMO_TABLES.photos, { offset: PHOTO_ROWS - 1, limit: 10 }))
    expect(last.numRows).toBe(1)
    expect(last.getChild('id')!.get(0)).toBe(99_999n)
    const start = tableFromIPC(await client.readPage(DEMO_TABLES.photos, { offset: 0, limit: 10 }))
    const titles = [...start.getChild('title')!] as string[]
    expect(titles.some((t) => [...t].some((c) => c.codePointAt(0)! > 127))).toBe(true)
    expect(titles.join(' ')).toMatch(/東京|🌅/)
    expect(start.getChild('caption')!.nullCount).toBeGreaterThan(0)
    expect(start.getChild('embedding')!.get(0)!.length).toBe(128)
  })

  it('shows every cell kind in samples/kinds, int64 above 2^53 exact', async () => {
    const d = await client.describeTable(DEMO_TABLES.kinds)
    expect(d.fields.map((f) => f.type)).toEqual(['Int64', 'Int64', 'Utf8', 'Bool', 'Float64', 'Binary', 'List<Utf8>', 'Struct<a: Int32, b: Utf8>', 'Date32'])
    const page = tableFromIPC(await client.readPage(DEMO_TABLES.kinds, { offset: 0, limit: 100 }))
    expect(page.getChild('big')!.get(3)).toBe(9_007_199_254_740_993n)
    expect(page.getChild('big')!.get(4)).toBe(9_223_372_036_854_775_807n)
    expect([...page.getChild('payload')!.get(1)!]).toEqual([0xde, 0xad, 0xbe, 0xef])
    expect([...page.getChild('tags')!.get(2)!]).toEqual(['red', 'green', 'blue'])
    expect(page.getChild('point')!.get(1)!.toJSON()).toEqual({ a: 2, b: 'two' })
    expect((await client.describeTable(DEMO_TABLES.empty)).rowCount).toBe(0)
  })

  it('holds real PNG, JPEG, WebP and GIF bytes in samples/pictures, with nulls and non-images among them', async () => {
    expect((await client.describeTable(DEMO_TABLES.pictures)).rowCount).toBe(IMAGE_ROWS)
    const page = tableFromIPC(await client.readPage(DEMO_TABLES.pictures, { offset: 0, limit: 20 }))
    const magic = { png: [0x89, 0x50, 0x4e, 0x47], jpeg: [0xff, 0xd8, 0xff], webp: [0x52, 0x49, 0x46, 0x46], gif: [0x47, 0x49, 0x46, 0x38] }
    for (let i = 0; i < 20; i++) {
      const kind = imageKindOf(i)
      const bytes = page.getChild('image')!.get(i) as Uint8Array | null
      expect(page.getChild('kind')!.get(i)).toBe(kind)
      if (kind === null) expect(bytes).toBeNull()
      else if (kind === 'not an image') expect(new TextDecoder().decode(bytes!)).toContain('no image')
      else expect([...bytes!.subarray(0, magic[kind].length)]).toEqual(magic[kind])
    }
  })

  it('refuses to build over a directory that holds something else', async () => {
    const other = join(base, 'not-demo')
    await mkdir(other)
    await writeFile(join(other, 'keep.txt'), 'mine')
    const error = await ensureDemoCatalog(other).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('conflict')
    expect(await readdir(other)).toEqual(['keep.txt'])
    await removeDir(other)
  })
})
