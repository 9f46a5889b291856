import type { DuckDBAppender, DuckDBConnection, DuckDBType } from '@duckdb/node-api'
import type { Field, RecordBatch, Schema } from 'apache-arrow'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
import { BatchWriter } from './handover'
import { dataBytes, heldTable, HeldTables } from './heldScan'
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
}

/** Rows kept over every loaded table; the least recently used go first past it (DuckDB spills what exceeds memory). */
export const CACHED_ROWS = 50_000_000
/**
 * A load holds its rows here (scanned by DuckDB through heldScan.ts) up to this many bytes; a bigger one goes into a
 * DuckDB table, which DuckDB spills to its temp folder under its memory limit (this process's memory has none).
 */
export const HELD_LOAD_BYTES = 256 * 1024 * 1024
/** Bytes held over every held table; the least recently used go first past it. */
export const HELD_BYTES = 512 * 1024 * 1024
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

  constructor(
    private readonly engineConnection: () => Promise<DuckDBConnection>,
    /** {@link HELD_LOAD_BYTES} (tests set it low to see a load go into a DuckDB table). */
    private readonly heldLoadBytes = HELD_LOAD_BYTES,
  ) {}

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

  /** The DuckDB table holding what `needs` asks of `key`'s version, loaded now if nothing kept serves it. */
  async table(client: NamespaceClient, id: TableId, version: number, schema: Schema, rowCount: number, key: string, needs: ScanNeeds, signal?: AbortSignal): Promise<{ name: string; columns: readonly string[]; cached: boolean }> {
    const serves = (l: Loaded) => l.key === key && needs.columns.every((c) => l.columns.includes(c)) && ((l.filter === null && l.limit === null) || (l.filter === needs.filter && (l.limit === null || (needs.limit !== null && needs.limit <= l.limit))))
    const kept = this.loaded.find(serves)
    if (kept) {
      kept.lastUsed = Date.now()
      return { name: kept.name, columns: kept.columns, cached: true }
    }
    const loadKey = `${key}|${needs.columns.join(',')}|${needs.filter ?? ''}|${needs.limit ?? ''}`
    let pending = this.loading.get(loadKey)
    if (!pending) {
      pending = this.load(client, id, version, schema, rowCount, key, needs, signal).finally(() => this.loading.delete(loadKey))
      this.loading.set(loadKey, pending)
    }
    const loaded = await pending
    return { name: loaded.name, columns: loaded.columns, cached: false }
  }

  private async load(client: NamespaceClient, id: TableId, version: number, schema: Schema, rowCount: number, key: string, needs: ScanNeeds, signal?: AbortSignal): Promise<Loaded> {
    const fields = needs.columns.map((c) => schema.fields.find((f) => f.name === c)).filter((f): f is Field => !!f)
    const names = fields.map((f) => f.name)
    const types = fields.map((f) => duckTypeOf(f.type, f.name))
    const connection = await this.connection()
    const batches: RecordBatch[] = []
    let bytes = 0
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
          batches.push(take)
          bytes += take.schema.fields.reduce((sum, _, i) => sum + dataBytes(take.getChildAt(i)!.data[0]!), 0)
          // Past what this process may hold, the rows go into a DuckDB table instead (DuckDB spills it to its temp
          // folder under its memory limit): the batches so far first, then each as it comes.
          if (bytes > this.heldLoadBytes) {
            table = await this.createTable(connection, fields, types)
            for (const held of batches.splice(0)) table.writer.append(held.select(names))
          }
        }
        if (needs.limit !== null && rows >= needs.limit) break
      }
      table?.appender.closeSync()
    } catch (error) {
      if (table) await connection.run(`DROP TABLE IF EXISTS ${table.name}`).catch(() => undefined)
      throw error
    }
    const name = table ? table.name : this.held.add(heldTable(names, types, batches))
    const loaded: Loaded = { name, key, columns: names, filter: needs.filter, limit: needs.limit, rows, held: !table, bytes: table ? 0 : bytes, lastUsed: Date.now() }
    this.loaded.push(loaded)
    await this.evict(connection, loaded)
    return loaded
  }

  /** An empty DuckDB table of the columns, with an appender writing into it. */
  private async createTable(connection: DuckDBConnection, fields: Field[], types: DuckDBType[]): Promise<{ name: string; appender: DuckDBAppender; writer: BatchWriter }> {
    const name = `__lcb_t${++this.next}`
    await connection.run(`CREATE TABLE ${name} (${fields.map((f, i) => `${quoteIdent(f.name)} ${types[i]!.toString()}`).join(', ')})`)
    const appender = await connection.createAppender(name)
    return { name, appender, writer: new BatchWriter(appender, types) }
  }

  /**
   * Drop the least recently used entries (never the one just loaded) past {@link CACHED_ROWS} cells of DuckDB tables
   * or {@link HELD_BYTES} held here.
   */
  private async evict(connection: DuckDBConnection, keep: Loaded): Promise<void> {
    let cells = this.loaded.reduce((sum, l) => sum + (l.held ? 0 : l.rows * Math.max(1, l.columns.length)), 0)
    let bytes = this.loaded.reduce((sum, l) => sum + l.bytes, 0)
    const byAge = [...this.loaded].sort((a, b) => a.lastUsed - b.lastUsed)
    for (const old of byAge) {
      const over = old.held ? bytes > HELD_BYTES : cells > CACHED_ROWS * 4
      if (old === keep || !over) continue
      if (!old.held) cells -= old.rows * Math.max(1, old.columns.length)
      bytes -= old.bytes
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
