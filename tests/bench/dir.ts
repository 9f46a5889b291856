/**
 * The `dir` namespace against bare @lancedb/lancedb (the `dir` benchmark):
 * - page latency through the whole path a page takes to the renderer — DirNamespaceClient.readPage → Arrow IPC
 *   bytes → transfer (Electron: the exact ArrayBuffer structured-cloned, v8.serialize/deserialize, as
 *   src/main/ipc.ts hands it over; harness: HTTP from the real harness, `arrayBuffer()`) → apache-arrow decode —
 *   versus the bare `table.query().offset(k).limit(n).toArrow()` of the same page, interleaved (target ≤ 1.1×);
 * - bytes of a page versus the raw bytes of its columns (target ≤ 1.1×);
 * - listing on a catalog of 1,000 namespaces and 2,000 tables versus bare listNamespaces/tableNames (≤ 1.3×).
 *
 * Data is generated once into BENCH_DIR (default .tmp/bench) and reused: the 1M-row table is ~3 GB and takes
 * about a minute, the catalog about 45 s. Knobs: BENCH_ROWS (1,000,000), BENCH_DIM (768), BENCH_PAGE_ROWS (200),
 * BENCH_REPS (61), BENCH_NS_TOP (10) × BENCH_NS_CHILDREN (99) namespaces with BENCH_NS_TABLES (2) tables each,
 * BENCH_WALK_REPS (3), BENCH_DIR_LISTING (1; 0 skips the listing tables). Quick run: `BENCH_ROWS=20000 BENCH_NS_TOP=3 BENCH_NS_CHILDREN=9 npm run bench -- dir`.
 */
import { existsSync } from 'node:fs'
import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import * as v8 from 'node:v8'
import * as lancedb from '@lancedb/lancedb'
import { DataType, tableFromIPC, type Data, type Table } from 'apache-arrow'
import { exactArrayBuffer, seededRandom } from '../../src/core/arrow'
import { startHarness } from '../../src/harness/server'
import { listAll } from '../../src/core/namespace/client'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import type { NamespacePath } from '../../src/core/namespace/path'
import { BENCH_TABLE, chunk, ensureRowsCatalog } from './data'

/** For other sections (bench/ui.ts): the big table's id, and the catalog that holds it (generated once). */
export { BENCH_TABLE as TABLE, ensureRowsCatalog as ensureTable }
import { compare, count, envInt, ms, ratio, time, verdict, type BenchContext, type Report, type Section } from './lib'

const PAGE_TARGET = 1.1
const BYTES_TARGET = 1.1
const LIST_TARGET = 1.3

/** The knobs (environment variables) of this section; bench/ui.ts reads the same ones. */
export function settings() {
  return {
    rows: envInt('BENCH_ROWS', 1_000_000),
    dim: envInt('BENCH_DIM', 768),
    pageRows: envInt('BENCH_PAGE_ROWS', 200),
    reps: envInt('BENCH_REPS', 61),
    top: envInt('BENCH_NS_TOP', 10),
    children: envInt('BENCH_NS_CHILDREN', 99),
    tablesPer: envInt('BENCH_NS_TABLES', 2),
    walkReps: envInt('BENCH_WALK_REPS', 3),
  }
}
export type Settings = ReturnType<typeof settings>

const top = (i: number) => `dept${String(i).padStart(2, '0')}`
const child = (i: number) => `coll${String(i).padStart(3, '0')}`

/** The listing catalog: `top` namespaces × `children` each, `tablesPer` one-row tables in every namespace. */
async function ensureCatalog(ctx: BenchContext, s: Settings): Promise<string> {
  const root = join(ctx.dir, `catalog-${s.top}x${s.children}x${s.tablesPer}`)
  if (existsSync(`${root}.ready`)) return root
  await rm(root, { recursive: true, force: true })
  const namespaces = s.top * (1 + s.children)
  ctx.log(`creating ${count(namespaces)} namespaces and ${count(namespaces * s.tablesPer)} tables in ${root} (once; ~45 s at full size)…`)
  const [elapsed] = await time(async () => {
    const client = await DirNamespaceClient.open(root, { create: true })
    await client.close()
    // Bare lancedb for speed: our createTable also checks the namespace and describes the result.
    const db = await lancedb.connectNamespace('dir', { root })
    const row = chunk(0, 1, s.dim, seededRandom(1))
    for (let t = 0; t < s.top; t++) {
      const paths: string[][] = [[top(t)], ...Array.from({ length: s.children }, (_, c) => [top(t), child(c)])]
      for (const path of paths) {
        await db.createNamespace(path)
        for (let k = 0; k < s.tablesPer; k++) await db.createTable(`tbl${k}`, row, path)
      }
      ctx.log(`  ${top(t)} done`)
    }
    db.close()
  })
  ctx.log(`created in ${(elapsed / 1000).toFixed(1)} s`)
  await writeFile(`${root}.ready`, new Date().toISOString())
  return root
}

/** What the columns of a page weigh with no framing: values, offsets, and validity bitmaps where nulls exist. */
function rawBytes(data: Data): number {
  const type = data.type
  let bytes = data.nullCount > 0 ? Math.ceil(data.length / 8) : 0
  if (DataType.isFixedSizeList(type) || DataType.isStruct(type)) return bytes + data.children.reduce((sum, c) => sum + rawBytes(c), 0)
  if (DataType.isUtf8(type) || DataType.isBinary(type) || DataType.isList(type)) {
    const offsets = data.valueOffsets
    bytes += (data.length + 1) * 4
    if (DataType.isList(type)) return bytes + data.children.reduce((sum, c) => sum + rawBytes(c), 0)
    return bytes + (Number(offsets[data.offset + data.length]) - Number(offsets[data.offset]))
  }
  if (DataType.isBool(type)) return bytes + Math.ceil(data.length / 8)
  return bytes + data.length * data.stride * (data.values as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT
}

function tableRawBytes(table: Table): number {
  return table.batches.reduce((sum, batch) => sum + batch.data.children.reduce((s2, c) => s2 + rawBytes(c), 0), 0)
}

async function pageSection(ctx: BenchContext, s: Settings, notes: string[]): Promise<Report['tables']> {
  const root = await ensureRowsCatalog(ctx, s)
  const client = await DirNamespaceClient.open(root)
  const db = await lancedb.connectNamespace('dir', { root })
  const bare = await db.openTable(BENCH_TABLE.name, [...BENCH_TABLE.namespace])
  const { rowCount } = await client.describeTable(BENCH_TABLE)
  notes.push(`table: ${count(rowCount)} rows of {id Int64, label Utf8 (20 chars), score Float64, vector FixedSizeList<Float32>[${s.dim}]}, ${count(s.pageRows)}-row pages, ${s.reps} interleaved reps (ABBA), medians`)

  const harness = await openHarness(root)
  const offsets = [0, Math.floor(rowCount / 2), Math.max(0, rowCount - 100)]
  const latency: (string | number)[][] = []
  for (const offset of offsets) {
    const expected = Math.min(s.pageRows, rowCount - offset)
    const check = (page: Table) => {
      if (page.numRows !== expected) throw new Error(`page at ${offset} has ${page.numRows} rows, expected ${expected}`)
    }
    const whole = async () => {
      const bytes = await client.readPage(BENCH_TABLE, { offset, limit: s.pageRows })
      check(tableFromIPC(new Uint8Array(v8.deserialize(v8.serialize(exactArrayBuffer(bytes))) as ArrayBuffer)))
    }
    const overHttp = async () => {
      const response = await fetch(`${harness.origin}/api/tables/page`, {
        method: 'POST',
        headers: harness.headers,
        body: JSON.stringify({ ...harness.ref, offset, limit: s.pageRows }),
      })
      check(tableFromIPC(new Uint8Array(await response.arrayBuffer())))
    }
    const coreOnly = () => client.readPage(BENCH_TABLE, { offset, limit: s.pageRows })
    const bareQuery = () => bare.query().offset(offset).limit(s.pageRows).toArrow()
    const path = await compare(whole, bareQuery, { reps: s.reps, warmup: 5 })
    const core = await compare(coreOnly, bareQuery, { reps: s.reps, warmup: 5 })
    const http = await compare(overHttp, bareQuery, { reps: s.reps, warmup: 5 })
    latency.push([count(offset), count(expected), ms(path.bare), ms(path.ours), ratio(path.ratio), ms(core.ours), ratio(core.ratio), ms(http.ours), ratio(http.ratio), verdict(path.ratio, PAGE_TARGET)])
  }

  const offset = offsets[1]!
  const bytes = await client.readPage(BENCH_TABLE, { offset, limit: s.pageRows })
  const raw = tableRawBytes(await bare.query().offset(offset).limit(s.pageRows).toArrow())
  const projected = await client.readPage(BENCH_TABLE, { offset, limit: s.pageRows, columns: ['id', 'label', 'score'] })
  const projectedRaw = tableRawBytes(await bare.query().select(['id', 'label', 'score']).offset(offset).limit(s.pageRows).toArrow())
  const sizes = [
    [`${s.pageRows} rows, all columns`, count(bytes.byteLength), count(raw), ratio(bytes.byteLength / raw), verdict(bytes.byteLength / raw, BYTES_TARGET)],
    [`${s.pageRows} rows, id/label/score`, count(projected.byteLength), count(projectedRaw), ratio(projected.byteLength / projectedRaw), verdict(projected.byteLength / projectedRaw, BYTES_TARGET)],
  ]
  db.close()
  await client.close()
  await harness.close()
  return [
    {
      title: `Page latency (ms): readPage → IPC bytes → transfer → decode, vs bare query().offset().limit().toArrow()`,
      columns: ['offset', 'rows', 'bare', 'whole path (Electron clone)', 'ratio (whole path)', 'readPage only', 'ratio (readPage)', 'harness HTTP + decode', 'ratio (HTTP)', 'verdict (whole path)'],
      rows: latency,
    },
    { title: 'Bytes per page (Arrow IPC stream) vs raw column bytes', columns: ['page', 'IPC bytes', 'raw bytes', 'ratio', 'verdict'], rows: sizes },
  ]
}

/** The real harness on the same catalog, for the HTTP column: its origin, token header and the table's ref. */
async function openHarness(root: string) {
  const harness = await startHarness({ root })
  const url = new URL(harness.url)
  const headers = { 'content-type': 'application/json', 'x-harness-token': new URLSearchParams(url.hash.slice(1)).get('token')! }
  const listed = await fetch(`${url.origin}/api/connections/list`, { method: 'POST', headers, body: '{}' })
  const connectionId = ((await listed.json()) as { value: { id: string }[] }).value[0]!.id
  return { origin: url.origin, headers, ref: { connectionId, namespace: [...BENCH_TABLE.namespace], name: BENCH_TABLE.name }, close: () => harness.close() }
}

async function listingSection(ctx: BenchContext, s: Settings, notes: string[]): Promise<Report['tables']> {
  const root = await ensureCatalog(ctx, s)
  const client = await DirNamespaceClient.open(root)
  const db = await lancedb.connectNamespace('dir', { root })
  const namespaces = s.top * (1 + s.children)
  notes.push(`catalog: ${count(namespaces)} namespaces (${s.top} × ${s.children} + ${s.top}), ${count(namespaces * s.tablesPer)} tables; bare = lancedb listNamespaces/tableNames on its own connection`)
  const mid = [top(Math.floor(s.top / 2)), child(Math.floor(s.children / 2))]
  const ops: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
    [`namespaces of the root (${s.top})`, () => client.listNamespaces([]), () => db.listNamespaces([])],
    [`namespaces of ${mid[0]} (${s.children})`, () => client.listNamespaces([mid[0]!]), () => db.listNamespaces([mid[0]!])],
    [`tables of ${mid.join('/')} (${s.tablesPer})`, () => client.listTables(mid), () => db.tableNames(mid)],
    [`tables of the root (0; ${count(namespaces * s.tablesPer)} dirs on disk)`, () => client.listTables([]), () => db.tableNames([])],
  ]
  const rows: (string | number)[][] = []
  for (const [label, ours, bareOp] of ops) {
    const r = await compare(ours, bareOp, { reps: s.reps })
    rows.push([label, ms(r.bare), ms(r.ours), ratio(r.ratio), verdict(r.ratio, LIST_TARGET)])
  }
  // A full recursive walk (every namespace's children and tables), as a tree expanded everywhere.
  let calls = 0
  const walkOurs = async (path: NamespacePath): Promise<number> => {
    calls += 2
    const [children, tables] = await Promise.all([listAll((o) => client.listNamespaces(path, o)), listAll((o) => client.listTables(path, o))])
    let n = tables.length
    for (const c of children) n += await walkOurs([...path, c])
    return n
  }
  const walkBare = async (path: string[]): Promise<number> => {
    const [children, tables] = await Promise.all([db.listNamespaces(path), db.tableNames(path, { limit: 100_000 })])
    let n = tables.length
    for (const c of children.namespaces) n += await walkBare([...path, c])
    return n
  }
  const found = await walkOurs([])
  const walkCalls = calls
  if (found !== namespaces * s.tablesPer || (await walkBare([])) !== found) throw new Error(`walk found ${found} tables`)
  const walk = await compare(() => walkOurs([]), () => walkBare([]), { reps: s.walkReps, warmup: 1 })
  rows.push([`full walk (${count(walkCalls)} list calls)`, ms(walk.bare), ms(walk.ours), ratio(walk.ratio), verdict(walk.ratio, LIST_TARGET)])
  db.close()
  await client.close()
  return [{ title: 'Listing latency (ms), medians', columns: ['operation', 'bare', 'ours', 'ratio', 'verdict'], rows }]
}

export const section: Section = {
  title: 'dir namespace: paging, page size and listing vs bare @lancedb/lancedb',
  async run(ctx) {
    const s = settings()
    const notes: string[] = []
    const listing = process.env.BENCH_DIR_LISTING !== '0'
    if (!listing) notes.push('listing tables not run this time (BENCH_DIR_LISTING=0)')
    const tables = [...(await pageSection(ctx, s, notes)), ...(listing ? await listingSection(ctx, s, notes) : [])]
    return { notes, tables }
  },
}

