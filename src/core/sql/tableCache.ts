import type { DuckDBAppender, DuckDBConnection, DuckDBType } from '@duckdb/node-api'
import type { Field, RecordBatch, Schema } from 'apache-arrow'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
import { BatchWriter } from './handover'
import { heldBatch, heldTable, HeldTables, type HeldBatch } from './heldScan'
import type { ScanNeeds } from './pushdown'
import { duckTypeOf, quoteIdent } from './types'

/** A catalog table's columns loaded into DuckDB for one version (and filter and limit, when Lance was given them). */
interface Loaded {
  name: string
  key: string
  columns: string[]
  filter: string | null
  limit: number | null
  rows: number
  /** Held in this process and scanned through heldScan.ts (else a DuckDB table). */
  held: boolean
  /** The held batches' bytes (0 for a DuckDB table). */
  bytes: number
  lastUsed: number
  /** Statements that named it and have not yet started (DuckDB's bind then keeps held batches alive itself). */
  pins: number
}

/** Rows kept over every loaded table; the least recently used go first past it (DuckDB spills what exceeds memory). */
export const CACHED_ROWS = 50_000_000
/**
 * A load holds its rows here (scanned by DuckDB through heldScan.ts) up to this many bytes (or the held budget, if
 * smaller); a bigger one goes into a DuckDB table, which DuckDB spills to its temp folder under its memory limit.
 */
export const HELD_LOAD_BYTES = 256 * 1024 * 1024
/**
 * Rows per Lance batch of a load: Lance's default 1,024-row batches each cross from Rust to JS (IPC bytes, decoded),
 * ~1,000 crossings per million rows. Q1's 7 columns of 1M rows (filtered), medians of 7 and 11 reads on the loaded
 * 2-core bench machine: 1,024 → ~1,070 ms, 8,192 → 205–325, 16,384 → 215–259, 32,768 → 168–355, 65,536 → 265–453
 * (larger batches leave Lance fewer to decode at once).
 */
const LANCE_BATCH_ROWS = 16_384

/**
 * Catalog tables for DuckDB, per table version: a query's scan reads Lance once (only the columns it needs, its
 * filter and limit handed to Lance) into Arrow batches held here, which DuckDB scans through a table function
 * (heldScan.ts), or, past {@link HELD_LOAD_BYTES}, into a DuckDB table; a second query over the same version reuses
 * it (the entry holding a superset of the columns, read without filter or limit, serves any query). A table dropped
 * while loading ends that query with the driver's error; nothing is kept half-loaded.
 */
export class TableCache {
  private readonly loaded: Loaded[] = []
  private readonly loading = new Map<string, Promise<Loaded>>()
  private readonly held = new HeldTables()
  private registered = false
  private next = 0
  /** Bytes of held loads still reading from Lance. */
  private loadingBytes = 0
  private readonly heldLoadBytes: number

  constructor(
    private readonly engineConnection: () => Promise<DuckDBConnection>,
    /**
     * The bytes every held table and held load together may take: the engine's memory budget less DuckDB's own
     * limit (instance.ts), since DuckDB does not count what this process holds. The least recently used go first.
     */
    private readonly heldBytes: number,
    /** {@link HELD_LOAD_BYTES} (tests set it low to see a load go into a DuckDB table). */
    heldLoadBytes = HELD_LOAD_BYTES,
  ) {
    this.heldLoadBytes = Math.min(heldLoadBytes, heldBytes)
  }

  /** What is kept: each entry's SQL name (`__lcb_scan(n)` held here, `__lcb_t<n>` a DuckDB table), rows, held bytes. */
  kept(): { name: string; held: boolean; rows: number; bytes: number }[] {
    return this.loaded.map(({ name, held, rows, bytes }) => ({ name, held, rows, bytes }))
  }

  /** The loader's connection, the held tables' scan function registered on it first. */
  private async connection(): Promise<DuckDBConnection> {
    const connection = await this.engineConnection()
    if (!this.registered) {
      this.held.register(connection)
      this.registered = true
    }
    return connection
  }

  /**
   * The DuckDB table holding what `needs` asks of `key`'s version, loaded now if nothing kept serves it; pinned (kept
   * from eviction) until {@link unpin}, which the statement calls once DuckDB has bound it.
   */
  async table(client: NamespaceClient, id: TableId, version: number, schema: Schema, rowCount: number, key: string, needs: ScanNeeds, signal?: AbortSignal): Promise<{ name: string; columns: readonly string[]; cached: boolean }> {
    const serves = (l: Loaded) => l.key === key && needs.columns.every((c) => l.columns.includes(c)) && ((l.filter === null && l.limit === null) || (l.filter === needs.filter && (l.limit === null || (needs.limit !== null && needs.limit <= l.limit))))
    const kept = this.loaded.find(serves)
    if (kept) {
      kept.lastUsed = Date.now()
      kept.pins++
      return { name: kept.name, columns: kept.columns, cached: true }
    }
    const loadKey = `${key}|${needs.columns.join(',')}|${needs.filter ?? ''}|${needs.limit ?? ''}`
    let pending = this.loading.get(loadKey)
    const shared = !!pending
    if (!pending) {
      pending = this.load(client, id, version, schema, rowCount, key, needs, signal).finally(() => this.loading.delete(loadKey))
      this.loading.set(loadKey, pending)
    }
    const loaded = await pending
    // The load pinned it for the statement that started it; another waiting on the same load pins it too.
    if (shared) loaded.pins++
    return { name: loaded.name, columns: loaded.columns, cached: false }
  }

  /** A statement no longer needs `name` kept (it started, or failed before). */
  unpin(name: string): void {
    const entry = this.loaded.find((l) => l.name === name)
    if (entry && entry.pins > 0) entry.pins--
  }

  private async load(client: NamespaceClient, id: TableId, version: number, schema: Schema, rowCount: number, key: string, needs: ScanNeeds, signal?: AbortSignal): Promise<Loaded> {
    const fields = needs.columns.map((c) => schema.fields.find((f) => f.name === c)).filter((f): f is Field => !!f)
    const names = fields.map((f) => f.name)
    const types = fields.map((f) => duckTypeOf(f.type, f.name))
    const connection = await this.connection()
    const batches: RecordBatch[] = []
    const held: HeldBatch[] = []
    let bytes = 0
    /** What this load has added to {@link loadingBytes} (taken back when it ends or goes into DuckDB). */
    let counted = 0
    let rows = 0
    let table: { name: string; appender: DuckDBAppender; writer: BatchWriter } | null = null
    try {
      const view = { version, columns: names, ...(needs.filter ? { filter: needs.filter } : {}) }
      for await (const batch of client.scan(id, view, { signal, limit: Math.max(1, needs.limit ?? rowCount), batchRows: LANCE_BATCH_ROWS })) {
        signal?.throwIfAborted()
        const take = needs.limit === null ? batch : batch.slice(0, Math.max(0, needs.limit - rows))
        rows += take.numRows
        if (table) table.writer.append(take.select(names))
        else {
          const piece = heldBatch(names, take)
          batches.push(take)
          held.push(piece)
          bytes += piece.bytes
          this.loadingBytes += piece.bytes
          counted += piece.bytes
          // Past what this load may hold, or what the held budget would have room for once every table no statement
          // is about to use were let go, the rows go into a DuckDB table instead (DuckDB spills it to its temp folder
          // under its memory limit): the batches so far first, then each as it comes. The tables are let go only
          // once the load is held (a load that goes into DuckDB lets none go).
          if (bytes > this.heldLoadBytes || this.pinnedBytes() + this.loadingBytes > this.heldBytes) {
            this.loadingBytes -= counted
            counted = 0
            held.length = 0
            table = await this.createTable(connection, fields, types)
            for (const old of batches.splice(0)) table.writer.append(old.select(names))
          }
        }
        if (needs.limit !== null && rows >= needs.limit) break
      }
      table?.appender.closeSync()
    } catch (error) {
      if (table) await connection.run(`DROP TABLE IF EXISTS ${table.name}`).catch(() => undefined)
      throw error
    } finally {
      this.loadingBytes -= counted
    }
    const name = table ? table.name : this.held.add(heldTable(names, types, held))
    const loaded: Loaded = { name, key, columns: names, filter: needs.filter, limit: needs.limit, rows, held: !table, bytes: table ? 0 : bytes, lastUsed: Date.now(), pins: 1 }
    this.loaded.push(loaded)
    await this.evict(connection)
    return loaded
  }

  /** Bytes held: every held table's and every held load's. */
  private heldNow(): number {
    return this.loaded.reduce((sum, l) => sum + l.bytes, 0) + this.loadingBytes
  }

  /** Bytes of the held tables a statement has pinned (which cannot be let go). */
  private pinnedBytes(): number {
    return this.loaded.reduce((sum, l) => sum + (l.pins > 0 ? l.bytes : 0), 0)
  }

  /** Let held tables go, least recently used first, none that a statement has pinned, until what is held fits the held budget. */
  private makeRoom(): void {
    for (const old of [...this.loaded].sort((a, b) => a.lastUsed - b.lastUsed)) {
      if (this.heldNow() <= this.heldBytes) return
      if (old.held && old.pins === 0) {
        this.loaded.splice(this.loaded.indexOf(old), 1)
        this.held.drop(old.name)
      }
    }
  }

  /** An empty DuckDB table of the columns, with an appender writing into it. */
  private async createTable(connection: DuckDBConnection, fields: Field[], types: DuckDBType[]): Promise<{ name: string; appender: DuckDBAppender; writer: BatchWriter }> {
    const name = `__lcb_t${++this.next}`
    await connection.run(`CREATE TABLE ${name} (${fields.map((f, i) => `${quoteIdent(f.name)} ${types[i]!.toString()}`).join(', ')})`)
    const appender = await connection.createAppender(name)
    return { name, appender, writer: new BatchWriter(appender, types) }
  }

  /**
   * Drop the least recently used entries (none a statement has pinned) past {@link CACHED_ROWS} cells of DuckDB tables
   * or the held budget.
   */
  private async evict(connection: DuckDBConnection): Promise<void> {
    this.makeRoom()
    let cells = this.loaded.reduce((sum, l) => sum + (l.held ? 0 : l.rows * Math.max(1, l.columns.length)), 0)
    for (const old of [...this.loaded].sort((a, b) => a.lastUsed - b.lastUsed)) {
      if (old.held || old.pins > 0 || cells <= CACHED_ROWS * 4) continue
      cells -= old.rows * Math.max(1, old.columns.length)
      await this.drop(connection, old)
    }
  }

  private async drop(connection: DuckDBConnection, old: Loaded): Promise<void> {
    this.loaded.splice(this.loaded.indexOf(old), 1)
    if (old.held) this.held.drop(old.name)
    else await connection.run(`DROP TABLE IF EXISTS ${old.name}`).catch(() => undefined)
  }

  /** Forget every table of a connection's catalog (it closed). */
  async forget(prefix: string): Promise<void> {
    const connection = await this.connection()
    for (const old of this.loaded.filter((l) => l.key.startsWith(prefix))) await this.drop(connection, old)
  }
}
