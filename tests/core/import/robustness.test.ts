import { readFile, writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import { openSource, writeSource } from '../../../src/core/import'
import { KITCHEN_SCHEMA, kitchenTable, writeArrow } from '../../fixtures/import/arrow'
import { DUCK_SELECT, duckdbCopy } from '../../fixtures/import/duckdb'
import { tableNames, workspace, type Workspace } from './helpers'

/**
 * Robustness: mutated files (truncations, flipped bytes, wrong headers, garbage) across every
 * format. Each must end in a clear AppError (not "internal") with no table left behind, or in a
 * complete table — never a crash, a hang or a partial table.
 */

let ws: Workspace
const originals = new Map<string, { bytes: Buffer; rows: number; text: boolean }>()
const ROWS = 300

beforeAll(async () => {
  ws = await workspace()
  await writeArrow(ws.file('base.arrow'), 'file', KITCHEN_SCHEMA, kitchenTable(ROWS, 100).batches)
  await writeArrow(ws.file('base.arrows'), 'stream', KITCHEN_SCHEMA, kitchenTable(ROWS, 100).batches)
  await duckdbCopy(DUCK_SELECT(ROWS), ws.file('base.parquet'), 'parquet', ', ROW_GROUP_SIZE 100')
  await duckdbCopy(DUCK_SELECT(ROWS), ws.file('base.csv'), 'csv')
  await duckdbCopy(DUCK_SELECT(ROWS), ws.file('base.jsonl'), 'json')
  for (const ext of ['arrow', 'arrows', 'parquet', 'csv', 'jsonl']) {
    originals.set(ext, { bytes: await readFile(ws.file(`base.${ext}`)), rows: ROWS, text: ext === 'csv' || ext === 'jsonl' })
  }
}, 120_000)

afterAll(async () => {
  await ws.cleanup()
})

/** mulberry32: a small seeded PRNG, so every run mutates the same way. */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

interface Mutant {
  name: string
  ext: string
  kind: 'truncate' | 'flip' | 'header' | 'garbage'
  bytes: Buffer
}

function mutants(): Mutant[] {
  const out: Mutant[] = []
  const rand = prng(Number(process.env.FUZZ_SEED ?? 20261122))
  const int = (n: number) => Math.floor(rand() * n)
  const magics = [Buffer.from('ARROW1\0\0'), Buffer.from('PAR1'), Buffer.from([0xff, 0xff, 0xff, 0xff]), Buffer.from('{"a":'), Buffer.from('id,x\n'), Buffer.from([0, 0, 0, 0, 1, 2, 3, 4])]
  for (const [ext, { bytes }] of originals) {
    const add = (kind: Mutant['kind'], b: Buffer) => out.push({ name: `${ext}-${kind}-${out.length}`, ext, kind, bytes: b })
    // truncations: start, end, and random cuts
    for (const cut of [0, 1, 4, 6, 8, bytes.length - 1, bytes.length - 4, bytes.length - 8, bytes.length - 12]) add('truncate', bytes.subarray(0, Math.max(0, cut)))
    for (let i = 0; i < 12; i++) add('truncate', bytes.subarray(0, int(bytes.length)))
    // flipped bytes: 1 to 8 random positions, head and tail weighted (metadata lives there)
    for (let i = 0; i < 16; i++) {
      const b = Buffer.from(bytes)
      const n = 1 + int(8)
      for (let k = 0; k < n; k++) {
        const where = i % 3 === 0 ? int(Math.min(64, b.length)) : i % 3 === 1 ? b.length - 1 - int(Math.min(256, b.length)) : int(b.length)
        b[where] = b[where]! ^ (1 + int(255))
      }
      add('flip', b)
    }
    // wrong headers: another format's magic over the first bytes
    for (const magic of magics) {
      const b = Buffer.from(bytes)
      magic.copy(b, 0)
      add('header', b)
    }
    // garbage appended, or random bytes
    add('garbage', Buffer.concat([bytes, Buffer.from('trailing garbage\n')]))
    add('garbage', Buffer.from(Array.from({ length: 1 + int(4096) }, () => int(256))))
  }
  return out
}

/** Rows a truncated text file can still hold: complete lines after the header (CSV) or all lines (JSONL). */
function textRows(ext: string, bytes: Buffer): number {
  const lines = bytes.toString('utf8').split('\n').filter((l) => l.trim() !== '')
  return ext === 'csv' ? Math.max(0, lines.length - 1) : lines.length
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`HANG: ${what} took over ${ms} ms`)), ms))),
  ])
}

describe('mutated files', () => {
  it('each ends in a clear error or a complete table (≥ 200 files)', async () => {
    const all = mutants()
    expect(all.length).toBeGreaterThanOrEqual(200)
    const problems: string[] = []
    const outcomes = { error: 0, table: 0 }
    let index = 0
    for (const m of all) {
      const name = `m${index++}`
      const path = ws.file(`${m.name}.${m.ext}`)
      await writeFile(path, m.bytes)
      try {
        const result = await withTimeout(
          (async () => writeSource(ws.client, { namespace: [], name }, await openSource(path), { mode: 'create' }))(),
          30_000,
          m.name,
        )
        outcomes.table++
        const described = await ws.client.describeTable({ namespace: [], name })
        if (described.rowCount !== result.rowCount) problems.push(`${m.name}: reported ${result.rowCount} rows, table has ${described.rowCount}`)
        const original = originals.get(m.ext)!
        if (m.kind === 'truncate' && !original.text && described.rowCount !== original.rows) {
          problems.push(`${m.name}: a truncated binary file became a table of ${described.rowCount} rows (partial)`)
        }
        if (m.kind === 'truncate' && original.text && described.rowCount !== textRows(m.ext, m.bytes)) {
          problems.push(`${m.name}: ${described.rowCount} rows where the truncated text holds ${textRows(m.ext, m.bytes)}`)
        }
      } catch (error) {
        outcomes.error++
        if (!(error instanceof AppError)) problems.push(`${m.name}: not an AppError: ${String(error)}`)
        else if (error.code === 'internal') problems.push(`${m.name}: unclear error: ${error.message}`)
        else if (error.message.length < 10) problems.push(`${m.name}: too short a message: ${error.message}`)
        const names = await tableNames(ws.client)
        if (names.includes(name)) problems.push(`${m.name}: failed (${(error as Error).message}) but left a table`)
      }
    }
    const staging = (await tableNames(ws.client)).filter((n) => n.startsWith('.import-'))
    expect(staging).toEqual([])
    expect(problems).toEqual([])
    // Both outcomes happen: flipped value bytes still make tables, broken structure makes errors.
    expect(outcomes.error).toBeGreaterThan(100)
    expect(outcomes.table).toBeGreaterThan(5)
  }, 600_000)
})
