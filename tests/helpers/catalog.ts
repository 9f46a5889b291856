/**
 * Shared helpers to build small Lance catalogs in temp dirs (core, server and E2E tests use them).
 * Everything here is real: real Lance tables written by the real `dir` client.
 */
import { createHash } from 'node:crypto'
import { lstat, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { Binary, Field, Int32, List, Struct, Utf8, makeVector, vectorFromArray, type Table } from 'apache-arrow'
import { batchOf, float32Vectors, seededRandom, tableOf, timestampsMicro } from '../../src/core/arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import type { TableId } from '../../src/core/namespace/path'

import { CatalogManifest } from '../../src/core/namespace/dir/manifest'
export { ensureDemoCatalog, DEMO_TABLES, DEMO_NAMESPACES, PHOTO_ROWS } from '../../src/core/demo'
import { encodePng } from '../../src/core/demo/images'

/** A fresh empty directory under the OS temp dir. */
export function makeTempDir(prefix = 'lcb-test-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix))
}

export function removeDir(path: string): Promise<void> {
  return rm(path, { recursive: true, force: true })
}

export interface SampleOptions {
  /** First id (ids are `start`, `start + 1`, …, as int64). Use a value above 2^53 to test exactness. */
  start?: bigint
  /** Vector dimension; 0 leaves the vector column out. Default 8. */
  dimension?: number
  /** Every n-th row has a null `note` (0 = never). Default 5. */
  nullEvery?: number
}

/**
 * Rows `{ id: Int64, label: Utf8, score: Float64, note: Utf8 (nullable), vector: FixedSizeList<Float32>[d] }`.
 * Row i has id = start + i, label = `row-<i>`, score = i / 2, note null when i % nullEvery === 0,
 * vector[k] = i + k / 1000 (so tests can check values).
 */
export function sampleTable(rows: number, options: SampleOptions = {}): Table {
  const { start = 0n, dimension = 8, nullEvery = 5 } = options
  const batches = []
  const chunk = 10_000
  for (let first = 0; first < rows || (rows === 0 && first === 0); first += chunk) {
    const n = Math.min(chunk, rows - first)
    const index = (i: number) => first + i
    const columns: Parameters<typeof batchOf>[0] = {
      id: { vector: makeVector(BigInt64Array.from({ length: n }, (_, i) => start + BigInt(index(i)))), nullable: false },
      label: { vector: vectorFromArray(Array.from({ length: n }, (_, i) => `row-${index(i)}`), new Utf8()), nullable: false },
      score: { vector: makeVector(Float64Array.from({ length: n }, (_, i) => index(i) / 2)), nullable: false },
      note: {
        vector: vectorFromArray(Array.from({ length: n }, (_, i) => (nullEvery > 0 && index(i) % nullEvery === 0 ? null : `note ${index(i)}`)), new Utf8()),
        nullable: true,
      },
    }
    if (dimension > 0) {
      const values = new Float32Array(n * dimension)
      for (let i = 0; i < n; i++) for (let k = 0; k < dimension; k++) values[i * dimension + k] = index(i) + k / 1000
      columns.vector = { vector: float32Vectors(values, dimension), nullable: false }
    }
    batches.push(batchOf(columns))
    if (rows === 0) break
  }
  return tableOf(batches)
}

/** Random floats, for benchmarks that need incompressible vectors. */
export { seededRandom }

export interface CatalogSpec {
  /** Namespaces to create, parents first (e.g. `[['a'], ['a', 'b']]`). */
  namespaces?: string[][]
  /** Tables to create: `rows` sample rows (see {@link sampleTable}) or your own `data`. */
  tables?: { namespace: string[]; name: string; rows?: number; data?: Table; sample?: SampleOptions }[]
}

/** Create a catalog (with `__manifest`) at `root` and fill it. Returns `root`. */
export async function buildCatalog(root: string, spec: CatalogSpec): Promise<string> {
  const client = await DirNamespaceClient.open(root, { create: true })
  try {
    for (const namespace of spec.namespaces ?? []) await client.createNamespace(namespace)
    for (const table of spec.tables ?? []) {
      await client.createTable({ namespace: table.namespace, name: table.name }, table.data ?? sampleTable(table.rows ?? 10, table.sample))
    }
  } finally {
    await client.close()
  }
  return root
}

/** The small 3-level catalog most tests use: a/b/c namespaces with tables at each level and at the root. */
export async function buildNestedCatalog(root: string): Promise<string> {
  return buildCatalog(root, {
    namespaces: [['a'], ['a', 'b'], ['a', 'b', 'c'], ['z']],
    tables: [
      { namespace: [], name: 'top', rows: 3 },
      { namespace: ['a'], name: 'alpha', rows: 20 },
      { namespace: ['a', 'b'], name: 'beta', rows: 5 },
      { namespace: ['a', 'b', 'c'], name: 'gamma', rows: 250, sample: { start: 9_007_199_254_740_990n } },
    ],
  })
}

/** path → "size mtime sha1" of every file and "dir mtime" of every directory under (and including) `root`. */
export async function snapshotTree(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  async function walk(dir: string): Promise<void> {
    const info = await lstat(dir)
    out.set(`${relative(root, dir) || '.'}/`, `dir ${info.mtimeMs}`)
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      else {
        const st = await lstat(path)
        const hash = createHash('sha1').update(await readFile(path)).digest('hex')
        out.set(relative(root, path), `${st.size} ${st.mtimeMs} ${hash}`)
      }
    }
  }
  await walk(root)
  return out
}

/** Human-readable differences between two snapshots (empty = unchanged). */
export function diffSnapshots(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = []
  for (const key of new Set([...before.keys(), ...after.keys()])) {
    const a = before.get(key)
    const b = after.get(key)
    if (a === undefined) changes.push(`added ${key}`)
    else if (b === undefined) changes.push(`removed ${key}`)
    else if (a !== b) changes.push(`changed ${key}: ${a} -> ${b}`)
  }
  return changes.sort()
}

/**
 * The directory that holds a table's files. With `__manifest` the dir namespace stores tables flat at the
 * root as `<hash>_<ns>$<name>` (root tables too may be `<name>.lance`).
 */
export async function findTableDir(root: string, id: TableId): Promise<string> {
  const entries = await readdir(root)
  const flat = [...id.namespace, id.name].join('$')
  let found = entries.find((e) => e === `${id.name}.lance` && id.namespace.length === 0)
  if (!found && id.namespace.length > 0 && entries.includes('__manifest')) {
    // The row's location is the truth (a table written under a staging name keeps that directory).
    const manifest = new CatalogManifest(root)
    try {
      found = (await manifest.find(flat)).find((r) => r.object_type === 'table')?.location ?? undefined
    } finally {
      await manifest.close()
    }
  }
  found ??= entries.find((e) => e.endsWith(`_${flat}`))
  if (!found) throw new Error(`no directory for table ${flat} in ${root}: ${entries.join(', ')}`)
  return join(root, found)
}

/** Damage a table on disk the ways users meet: data files deleted, version manifests garbled, the whole folder gone. */
export async function corruptTable(root: string, id: TableId, how: 'delete-data' | 'garble-manifest' | 'delete-dir'): Promise<void> {
  const dir = await findTableDir(root, id)
  if (how === 'delete-dir') return rm(dir, { recursive: true })
  const sub = how === 'delete-data' ? 'data' : '_versions'
  for (const file of await readdir(join(dir, sub))) {
    if (how === 'delete-data') await rm(join(dir, sub, file))
    else if (file.endsWith('.manifest')) await writeFile(join(dir, sub, file), 'garbage')
  }
}

/** A real PNG (RGB, 8-bit) of `size`×`size` pixels: a diagonal split, red above and blue below. */
export function pngImage(size = 48): Uint8Array {
  return encodePng(size, (x, y) => (x >= y ? [220, 60, 0] : [0, 60, 200]))
}

/** The 10 KB text of {@link inspectTable}'s first row: numbered words, so a cut anywhere shows. */
export const LONG_TEXT = Array.from({ length: 2200 }, (_, i) => `w${i}`).join(' ').slice(0, 10_240) + ' END'

export const INSPECT_DIMENSION = 768

/** Row `row`'s 768-d vector in {@link inspectTable}: a sine, with zeros every 100th value (row 0 also has a NaN). */
export function inspectVector(row: number): Float32Array {
  const v = Float32Array.from({ length: INSPECT_DIMENSION }, (_, k) => (k % 100 === 0 ? 0 : Math.sin(k / 20 + row) * (1 + row)))
  if (row === 0) v[5] = Number.NaN
  return v
}

/**
 * Every kind of value the inspector, copy and export must keep whole: a 10 KB text, a JSON string, a PNG
 * (and a non-image) in a binary column, int64 above 2^53, microsecond timestamps, a struct, a list, a
 * 768-d vector and nulls.
 */
export function inspectTable(rows = 6): Table {
  const image = pngImage()
  const vectors = new Float32Array(rows * INSPECT_DIMENSION)
  for (let r = 0; r < rows; r++) vectors.set(inspectVector(r), r * INSPECT_DIMENSION)
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from({ length: rows }, (_, i) => 9_007_199_254_740_993n + BigInt(i))), nullable: false },
      title: { vector: vectorFromArray(Array.from({ length: rows }, (_, i) => (i === 0 ? LONG_TEXT : i === 2 ? null : `title "${i}",\ttab\nline`)), new Utf8()), nullable: true },
      doc: vectorFromArray(Array.from({ length: rows }, (_, i) => JSON.stringify({ row: i, tags: ['a', 'b'], nested: { ok: i % 2 === 0 } })), new Utf8()),
      image: {
        vector: vectorFromArray(Array.from({ length: rows }, (_, i) => (i === 0 ? image : i === 2 ? null : Uint8Array.from([0xde, 0xad, 0xbe, 0xef, i]))), new Binary()),
        nullable: true,
      },
      at: timestampsMicro(BigInt64Array.from({ length: rows }, (_, i) => 1_714_564_800_123_456n + BigInt(i) * 3_600_000_000n)),
      meta: vectorFromArray(
        Array.from({ length: rows }, (_, i) => ({ a: i * 10, b: i % 2 ? null : `b${i}` })),
        new Struct([new Field('a', new Int32(), true), new Field('b', new Utf8(), true)]),
      ),
      tags: vectorFromArray(Array.from({ length: rows }, (_, i) => Array.from({ length: i }, (_, k) => `t${k}`)), new List(new Field('item', new Utf8(), true))),
      embedding: { vector: float32Vectors(vectors, INSPECT_DIMENSION), nullable: false },
    }),
  ])
}
