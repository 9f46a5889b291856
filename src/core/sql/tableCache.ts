import type { DuckDBConnection } from '@duckdb/node-api'
import type { Field, Schema } from 'apache-arrow'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
import { BatchWriter } from './handover'
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
  lastUsed: number
}

/** Rows kept over every loaded table; the least recently used go first past it (DuckDB spills what exceeds memory). */
export const CACHED_ROWS = 50_000_000

/**
 * Catalog tables as DuckDB tables, per table version: a query's scan reads Lance once (only the columns it needs, its
 * filter and limit handed to Lance) into a DuckDB table, and a second query over the same version reuses it (the
 * entry holding a superset of the columns, read without filter or limit, serves any query). A table dropped while
 * loading ends that query with the driver's error; nothing is kept half-loaded.
 */
export class TableCache {
  private readonly loaded: Loaded[] = []
  private readonly loading = new Map<string, Promise<Loaded>>()
  private next = 0

  constructor(private readonly connection: () => Promise<DuckDBConnection>) {}

  /** The DuckDB table holding what `needs` asks of `key`'s version, loaded now if nothing kept serves it. */
  async table(client: NamespaceClient, id: TableId, version: number, schema: Schema, rowCount: number, key: string, needs: ScanNeeds, signal?: AbortSignal): Promise<{ name: string; cached: boolean }> {
    const serves = (l: Loaded) => l.key === key && needs.columns.every((c) => l.columns.includes(c)) && ((l.filter === null && l.limit === null) || (l.filter === needs.filter && (l.limit === null || (needs.limit !== null && needs.limit <= l.limit))))
    const kept = this.loaded.find(serves)
    if (kept) {
      kept.lastUsed = Date.now()
      return { name: kept.name, cached: true }
    }
    const loadKey = `${key}|${needs.columns.join(',')}|${needs.filter ?? ''}|${needs.limit ?? ''}`
    let pending = this.loading.get(loadKey)
    if (!pending) {
      pending = this.load(client, id, version, schema, rowCount, key, needs, signal).finally(() => this.loading.delete(loadKey))
      this.loading.set(loadKey, pending)
    }
    return { name: (await pending).name, cached: false }
  }

  private async load(client: NamespaceClient, id: TableId, version: number, schema: Schema, rowCount: number, key: string, needs: ScanNeeds, signal?: AbortSignal): Promise<Loaded> {
    const fields = needs.columns.map((c) => schema.fields.find((f) => f.name === c)).filter((f): f is Field => !!f)
    const types = fields.map((f) => duckTypeOf(f.type, f.name))
    const name = `__lcb_t${++this.next}`
    const connection = await this.connection()
    await connection.run(`CREATE TABLE ${name} (${fields.map((f, i) => `${quoteIdent(f.name)} ${types[i]!.toString()}`).join(', ')})`)
    let rows = 0
    try {
      const appender = await connection.createAppender(name)
      const writer = new BatchWriter(appender, types)
      const view = { version, columns: fields.map((f) => f.name), ...(needs.filter ? { filter: needs.filter } : {}) }
      for await (const batch of client.scan(id, view, { signal, limit: Math.max(1, needs.limit ?? rowCount) })) {
        signal?.throwIfAborted()
        const take = needs.limit === null ? batch : batch.slice(0, Math.max(0, needs.limit - rows))
        // Lance may answer the columns in its own order: pick them in the table's.
        const ordered = take.select(fields.map((f) => f.name))
        writer.append(ordered)
        rows += ordered.numRows
        if (needs.limit !== null && rows >= needs.limit) break
      }
      appender.closeSync()
    } catch (error) {
      await connection.run(`DROP TABLE IF EXISTS ${name}`).catch(() => undefined)
      throw error
    }
    const loaded: Loaded = { name, key, columns: fields.map((f) => f.name), filter: needs.filter, limit: needs.limit, rows, lastUsed: Date.now() }
    this.loaded.push(loaded)
    await this.evict(connection, loaded)
    return loaded
  }

  /** Drop the least recently used tables past {@link CACHED_ROWS} (never the one just loaded). */
  private async evict(connection: DuckDBConnection, keep: Loaded): Promise<void> {
    let rows = this.loaded.reduce((sum, l) => sum + l.rows * Math.max(1, l.columns.length), 0)
    const byAge = [...this.loaded].sort((a, b) => a.lastUsed - b.lastUsed)
    for (const old of byAge) {
      if (rows <= CACHED_ROWS * 4 || old === keep) continue
      this.loaded.splice(this.loaded.indexOf(old), 1)
      rows -= old.rows * Math.max(1, old.columns.length)
      await connection.run(`DROP TABLE IF EXISTS ${old.name}`).catch(() => undefined)
    }
  }

  /** Forget every table of a connection's catalog (it closed). */
  async forget(prefix: string): Promise<void> {
    const connection = await this.connection()
    for (const old of this.loaded.filter((l) => l.key.startsWith(prefix))) {
      this.loaded.splice(this.loaded.indexOf(old), 1)
      await connection.run(`DROP TABLE IF EXISTS ${old.name}`).catch(() => undefined)
    }
  }
}
