import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import type { NamespaceClient } from '../../../src/core/namespace/client'
import { DirNamespaceClient } from '../../../src/core/namespace/dir'
import { SqlEngine } from '../../../src/core/sql/engine'
import { buildCatalog, makeTempDir, removeDir, sampleTable } from '../../helpers/catalog'

const ROWS = 60_000
const FRAGMENTS = 6
const ID = { namespace: ['ns'], name: 't' }

/**
 * The real directory client, whose scans run `between` (a drop or an overwrite by a second, real client) once the
 * first batch of a load has been handed over: the table changes while the query is reading it, every time.
 */
function changedMidScan(client: NamespaceClient, between: () => Promise<void>, afterBatches: number): NamespaceClient {
  return new Proxy(client, {
    get(target, key) {
      if (key === 'scan') {
        return async function* (...args: Parameters<NamespaceClient['scan']>) {
          let seen = 0
          if (afterBatches === 0) await between()
          for await (const batch of target.scan(...args)) {
            yield batch
            if (++seen === afterBatches) await between()
          }
        }
      }
      const value = Reflect.get(target, key, target) as unknown
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
    },
  })
}

describe('a table dropped or rewritten while a query reads it', () => {
  let base: string
  let root: string
  let engine: SqlEngine
  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-midquery-')
    root = await buildCatalog(join(base, 'catalog'), { namespaces: [['ns']] })
    engine = new SqlEngine({ memoryMb: 256, threads: 1, timeoutMs: 120_000 })
  })
  afterAll(async () => {
    await engine?.closeAll()
    await removeDir(base)
  })

  /** `sql/run` and its first page, or the error it ended with. */
  async function runOver(client: NamespaceClient, sql: string, catalog: string): Promise<{ rows: unknown[][] } | { error: unknown }> {
    try {
      const info = await engine.run(client, catalog, 'c1', sql)
      const table = tableFromIPC(await engine.page(info.queryId, 0, 10))
      engine.close(info.queryId)
      return { rows: [...table].map((row) => table.schema.fields.map((f) => String(row[f.name]))) }
    } catch (error) {
      return { error }
    }
  }

  const drop = async (writer: DirNamespaceClient) => writer.dropTable(ID)
  const overwrite = async (writer: DirNamespaceClient) => void (await writer.createTable(ID, sampleTable(5, { dimension: 0 }).select(['label']), { mode: 'overwrite' }))
  it.each([
    { what: 'dropped', change: drop, afterBatches: 0 },
    { what: 'dropped', change: drop, afterBatches: 1 },
    { what: 'overwritten with other columns', change: overwrite, afterBatches: 0 },
    { what: 'overwritten with other columns', change: overwrite, afterBatches: 1 },
  ] as const)('$what after $afterBatches batches were read: the query ends in words or answers the version it began with; the engine goes on', async ({ what, change, afterBatches }) => {
    const writer = await DirNamespaceClient.open(root)
    const reader = await DirNamespaceClient.open(root)
    try {
      // Several fragments (data files), so files are still to be opened when the change lands.
      await writer.createTable(ID, sampleTable(ROWS / FRAGMENTS, { dimension: 0 }), { mode: 'overwrite' })
      for (let i = 1; i < FRAGMENTS; i++) await writer.appendRows(ID, sampleTable(ROWS / FRAGMENTS, { dimension: 0, start: BigInt((i * ROWS) / FRAGMENTS) }))
      const sql = 'SELECT count(*) AS n, sum(id) AS s, max(label) AS m FROM ns.t'
      const catalog = `${root}#${what}${afterBatches}`
      const whole = { rows: [[String(ROWS), String((ROWS * (ROWS - 1)) / 2), 'row-9999']] }
      const outcome = await runOver(changedMidScan(reader, () => change(writer), afterBatches), sql, catalog)
      if ('error' in outcome) {
        // Ended with words: an AppError the user can act on, never `internal`.
        expect(outcome.error).toBeInstanceOf(AppError)
        expect((outcome.error as AppError).code).not.toBe('internal')
        expect((outcome.error as AppError).message).toMatch(/ns\/t/)
      } else {
        // Lance reads the version the query resolved: whole, never a mix of old and new rows.
        expect(outcome).toEqual(whole)
      }
      // Dropped before its files were opened: not found, in words. An overwrite keeps the version read: its answer.
      if (what === 'dropped' && afterBatches === 0) expect('error' in outcome && (outcome.error as AppError).code).toBe('not_found')
      if (what !== 'dropped') expect(outcome).toEqual(whole)
      // The engine answers the next statement over the table as it is now.
      const after = await runOver(reader, 'SELECT count(*) AS n FROM ns.t', catalog)
      if (what === 'dropped') {
        expect('error' in after && after.error instanceof AppError && after.error.code).toBe('invalid_input')
      } else {
        expect(after).toEqual({ rows: [['5']] })
      }
    } finally {
      await writer.close()
      await reader.close()
    }
  }, 120_000)
})

describe('tables held for DuckDB count in the engine\'s memory budget', () => {
  // A 16 MiB budget: DuckDB's limit 12 MiB, 4 MiB for held tables. Each table below holds ~1.6 MB (id and 8,000
  // vectors of 48 floats), `big` ~4.8 MB.
  const LIMITS = { memoryMb: 16, threads: 1, timeoutMs: 120_000 }
  const HELD = 4 * 1024 * 1024
  let base: string
  let client: DirNamespaceClient
  let engine: SqlEngine

  beforeAll(async () => {
    base = await makeTempDir('lcb-sql-budget-')
    const root = await buildCatalog(join(base, 'catalog'), { namespaces: [['ns']] })
    client = await DirNamespaceClient.open(root)
    for (const name of ['a', 'b', 'c', 'd']) await client.createTable({ namespace: ['ns'], name }, sampleTable(8_000, { dimension: 48 }))
    await client.createTable({ namespace: ['ns'], name: 'big' }, sampleTable(24_000, { dimension: 48 }))
  })
  afterEach(async () => engine?.closeAll())
  afterAll(async () => {
    await client?.close()
    await removeDir(base)
  })

  async function answer(sql: string): Promise<string[][]> {
    const info = await engine.run(client, 'catalog', 'c1', sql)
    const table = tableFromIPC(await engine.page(info.queryId, 0, 100))
    engine.close(info.queryId)
    return [...table].map((row) => table.schema.fields.map((f) => String(row[f.name])))
  }
  const heldBytes = () => engine.kept().reduce((sum, k) => sum + k.bytes, 0)
  const heldNames = () => engine.kept().filter((k) => k.held).length

  it('DuckDB is given the budget less the held share', async () => {
    engine = new SqlEngine(LIMITS)
    expect(await answer("SELECT current_setting('memory_limit') AS m")).toEqual([['12.0 MiB']])
  })

  it('held tables stay inside the held share: the least recently used go first, the answers stay right', async () => {
    engine = new SqlEngine(LIMITS)
    const sum = String((8_000 * 7_999) / 2)
    for (const name of ['a', 'b', 'c', 'a']) {
      expect(await answer(`SELECT sum(id) AS s, count(vector) AS n FROM ns.${name}`)).toEqual([[sum, '8000']])
      expect(heldBytes()).toBeLessThanOrEqual(HELD)
    }
    // Each ~1.6 MB: two fit in 4 MiB, so reading c let a go, and a again let b go.
    expect(engine.kept().map((k) => k.held)).toEqual([true, true])
    expect(heldBytes()).toBeGreaterThan(HELD / 2)
  })

  it('a join of more than the held share answers: the tables it already read stay held, the one past the share goes into DuckDB', async () => {
    engine = new SqlEngine(LIMITS)
    // Each table's vectors are read whole (the load reads the column) while the joins carry one element of each.
    const side = (t: string, k: number) => `(SELECT id, vector[${k}] AS ${t} FROM ns.${t})`
    const sql = `SELECT count(*) AS n, sum(floor(a) + floor(b) + floor(c))::BIGINT AS s FROM ${side('a', 1)} JOIN ${side('b', 2)} USING (id) JOIN ${side('c', 3)} USING (id)`
    // Row i's vector[k] is i + (k − 1)/1000: each floored is i.
    expect(await answer(sql)).toEqual([['8000', String(3 * ((8_000 * 7_999) / 2))]])
    expect(engine.kept().filter((k) => k.held)).toHaveLength(2)
    expect(engine.kept().filter((k) => !k.held)).toHaveLength(1)
    expect(heldBytes()).toBeLessThanOrEqual(HELD)
  })

  it('a statement\'s tables stay held while it loads the next, even when another statement read a table meanwhile', async () => {
    engine = new SqlEngine(LIMITS)
    // The join's scan of b waits until the other statement has read d: a (read first) is then the least recently used.
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    let waiting!: () => void
    const atGate = new Promise<void>((resolve) => (waiting = resolve))
    const gated = new Proxy(client, {
      get(target, key) {
        if (key === 'scan')
          return async function* (...args: Parameters<NamespaceClient['scan']>) {
            if (args[0].name === 'b') {
              waiting()
              await gate
            }
            yield* target.scan(...args)
          }
        const value = Reflect.get(target, key, target) as unknown
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
      },
    })
    const side = (t: string) => `(SELECT id, vector[1] AS ${t} FROM ns.${t})`
    const join = engine.run(gated, 'catalog', 'c1', `SELECT count(*) AS n, sum(a + b)::BIGINT AS s FROM ${side('a')} JOIN ${side('b')} USING (id)`)
    await atGate
    expect(await answer('SELECT count(vector) AS n FROM ns.d')).toEqual([['8000']])
    open()
    const info = await join
    const joined = tableFromIPC(await engine.page(info.queryId, 0, 1))
    expect([joined.getChild('n')!.get(0), joined.getChild('s')!.get(0)]).toEqual([8000n, BigInt(8_000 * 7_999)])
    engine.close(info.queryId)
    // a, d and b do not fit together: d went, not a (which the join had read and not yet started on).
    expect(engine.kept()).toHaveLength(2)
    expect(heldBytes()).toBeLessThanOrEqual(HELD)
  })

  it('a table larger than the held share goes into DuckDB (which spills it under its own limit); the held ones stay', async () => {
    engine = new SqlEngine(LIMITS)
    await answer('SELECT count(vector) AS n FROM ns.a')
    expect(await answer('SELECT count(vector) AS n, max(id) AS m FROM ns.big')).toEqual([['24000', '23999']])
    expect(engine.kept().map((k) => k.held)).toEqual([true, false])
    expect(heldNames()).toBe(1)
  })
})
