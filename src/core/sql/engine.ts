import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'
import { Type, type Schema } from 'apache-arrow'
import { AppError, type SqlExplain, type SqlQueryInfo, type SqlTableRead } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import { rewrite, sqlError, type Replacement } from './errors'
import { KeptQuery } from './kept'
import { memorySplit, openEngine, type SqlEngineLimits } from './instance'
import { planScans, type ScanNeeds } from './pushdown'
import { resolveTable, type ResolvedTable } from './resolve'
import { parseStatement, type NamedTable } from './statement'
import { TableCache } from './tableCache'
import { duckTypeOf, quoteIdent } from './types'

/** Queries kept at once; the oldest finished ones are freed first. */
const KEPT_QUERIES = 32

interface Engine {
  instance: DuckDBInstance
  folder: string
  /** Plans against empty stand-ins, with statistics propagation off (it would plan no scan over an empty table). */
  planner: DuckDBInstance
  loader: DuckDBConnection
}

/** An open catalog a statement reads: its client, and where it lives (the key of what is kept of its tables). */
export interface SqlCatalog {
  client: NamespaceClient
  catalog: string
}

/** The other open catalogs a statement may name with `lance('ns/t', catalog => 'label')`, by label; null when two share it. */
export type OtherCatalogs = ReadonlyMap<string, SqlCatalog | null>

/** A resolved table with the client it is read through and, for another open catalog's, that catalog's label. */
type SourcedTable = ResolvedTable & { client: NamespaceClient; label?: string }

/** A statement made ready to run: its catalog tables resolved, and what each scan needs of Lance. */
interface Prepared {
  named: NamedTable[]
  tables: Map<NamedTable, SourcedTable>
  needs: Map<string, ScanNeeds>
  plan: string
}

/**
 * The SQL engine: DuckDB in this process (the desktop's catalog host, the harness's process) reading the catalog's
 * tables by name. A statement is parsed by DuckDB, its names resolved to table versions, planned over empty
 * stand-ins to learn what each scan needs, the needed columns read from Lance into DuckDB (kept per version), and
 * run there, its result kept for paging.
 */
export class SqlEngine {
  private engine: Promise<Engine> | null = null
  private readonly cache: TableCache
  private readonly queries = new Map<string, KeptQuery>()
  private readonly standIns = new Map<string, string>()
  private next = 0
  private standInLock: Promise<void> = Promise.resolve()

  constructor(
    private readonly limits: SqlEngineLimits,
    options: { heldLoadBytes?: number } = {},
  ) {
    this.cache = new TableCache(async () => (await this.open()).loader, memorySplit(limits).heldBytes, options.heldLoadBytes)
  }

  /** The catalog tables kept for queries (tests, diagnostics). */
  kept(): ReturnType<TableCache['kept']> {
    return this.cache.kept()
  }

  private open(): Promise<Engine> {
    this.engine ??= (async () => {
      const { instance, folder } = await openEngine(this.limits)
      const planner = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false', threads: '1' })
      const setup = await planner.connect()
      // Late materialization (DuckDB 1.5) plans `SELECT * … LIMIT n` as a rowid semi-join of the table with itself:
      // the scans read here would lose their LIMIT (a 100M-row table was read whole for 100 rows).
      await setup.run("SET disabled_optimizers = 'statistics_propagation,late_materialization'")
      await setup.run('SET enable_external_access = false')
      await setup.run('SET lock_configuration = true')
      setup.closeSync()
      return { instance, folder, planner, loader: await instance.connect() }
    })()
    return this.engine
  }

  /** Start DuckDB now if it is not running (its failure, if any, is the next statement's answer). */
  warm(): void {
    this.open().catch(() => undefined)
  }

  private async prepare(client: NamespaceClient, catalog: string, sql: string, signal?: AbortSignal, withPlan = false, others: OtherCatalogs = new Map()): Promise<Prepared> {
    const engine = await this.open()
    const planner = await engine.planner.connect()
    try {
      const parsed = await parseStatement(planner, sql)
      const tables = new Map<NamedTable, SourcedTable>()
      for (const named of parsed.tables) {
        const source = named.catalog === undefined ? { client, catalog } : otherCatalog(others, named)
        const resolved = await resolveTable(source.client, named, signal)
        tables.set(named, { ...resolved, key: `${source.catalog}|${resolved.key}`, client: source.client, ...(named.catalog !== undefined ? { label: named.catalog } : {}) })
      }
      const standInColumns = new Map<string, { columns: string[]; dates: Set<string> }>()
      for (const table of tables.values()) {
        const fields = table.schema.fields
        standInColumns.set(await this.standIn(planner, table), { columns: fields.map((f) => f.name), dates: new Set(fields.filter((f) => f.type.typeId === Type.Date).map((f) => f.name)) })
      }
      const replacements = parsed.tables.map((named) => replacement(named, this.standIns.get(tables.get(named)!.key)!, sql))
      const rewritten = rewrite(sql, replacements)
      const { plan, needs } = await planScans(planner, rewritten, standInColumns, () => parsed.limit, withPlan).catch((error: unknown) => {
        throw sqlError(error, sql, rewritten, replacements)
      })
      const byKey = new Map<string, ScanNeeds>()
      for (const table of tables.values()) {
        const found = needs.get(this.standIns.get(table.key)!)
        // A table the optimizer dropped (a join it proved empty) still has to exist to run: one column.
        byKey.set(table.key, found ?? { columns: table.schema.fields.slice(0, 1).map((f) => f.name), filter: null, notPushed: [], limit: 0 })
      }
      return { named: parsed.tables, tables, needs: byKey, plan: plan.replace(/__lcb_p\d+/g, (name) => displayOf(tables, this.standIns, name)) }
    } finally {
      planner.closeSync()
    }
  }

  /** The planner's empty table standing in for a table version (its columns that SQL can read). */
  private standIn(planner: DuckDBConnection, table: ResolvedTable): Promise<string> {
    // One at a time: two statements naming the same new table version must not both create its stand-in.
    const made = this.standInLock.then(() => this.makeStandIn(planner, table))
    this.standInLock = made.then(() => undefined, () => undefined)
    return made
  }

  private async makeStandIn(planner: DuckDBConnection, table: ResolvedTable): Promise<string> {
    const known = this.standIns.get(table.key)
    if (known) return known
    const name = `__lcb_p${++this.next}`
    const columns = table.schema.fields.flatMap((f) => {
      try {
        return [`${quoteIdent(f.name)} ${duckTypeOf(f.type, f.name).toString()}`]
      } catch {
        return [] // a column of a type SQL cannot read: a query naming it is told it does not exist
      }
    })
    await planner.run(`CREATE TABLE ${name} (${columns.join(', ') || '"_" INTEGER'})`)
    this.standIns.set(table.key, name)
    return name
  }

  async explain(client: NamespaceClient, catalog: string, sql: string, others?: OtherCatalogs): Promise<SqlExplain> {
    const prepared = await this.prepare(client, catalog, sql, undefined, true, others)
    const seen = new Set<string>()
    const scans: SqlExplain['scans'] = []
    for (const table of prepared.tables.values()) {
      if (seen.has(table.key)) continue
      seen.add(table.key)
      const needs = prepared.needs.get(table.key)!
      scans.push({ namespace: table.id.namespace, name: table.id.name, version: table.version, ...catalogOf(table), columns: needs.columns, filter: needs.filter, notPushed: needs.notPushed, limit: needs.limit })
    }
    return { plan: prepared.plan, scans }
  }

  async run(client: NamespaceClient, catalog: string, connectionId: string, sql: string, signal?: AbortSignal, others?: OtherCatalogs): Promise<SqlQueryInfo> {
    const budget = new AbortController()
    const timer = setTimeout(() => budget.abort(timeoutError(this.limits.timeoutMs)), this.limits.timeoutMs)
    timer.unref?.()
    const stop = () => budget.abort(new AppError('cancelled', 'The query was cancelled'))
    signal?.addEventListener('abort', stop, { once: true })
    if (signal?.aborted) stop()
    const pinned: string[] = []
    try {
      const prepared = await this.prepare(client, catalog, sql, budget.signal, false, others)
      const names = await this.load(prepared, pinned, budget.signal)
      const replacements = prepared.named.map((named) => replacement(named, names.get(prepared.tables.get(named)!.key)!, sql))
      const rewritten = rewrite(sql, replacements)
      const reads: SqlTableRead[] = [...new Map([...prepared.tables.values()].map((t) => [t.key, { namespace: t.id.namespace, name: t.id.name, version: t.version, ...catalogOf(t) }])).values()]
      const engine = await this.open()
      const id = `q${(++this.next).toString(36)}${Date.now().toString(36)}`
      const kept = new KeptQuery(id, connectionId, sql, await engine.instance.connect(), (error) => (budget.signal.aborted ? (budget.signal.reason as AppError) : sqlError(error, sql, rewritten, replacements)))
      this.keep(kept)
      budget.signal.addEventListener('abort', () => kept.cancel(budget.signal.reason as AppError), { once: true })
      // A cancel (or the budget's end) that came while the statement was prepared fired no listener: it ends the
      // query here, before DuckDB starts it (else it would run unstopped).
      if (budget.signal.aborted) {
        kept.cancel(budget.signal.reason as AppError)
        throw budget.signal.reason
      }
      await kept.start(rewritten, reads)
      return kept.info()
    } finally {
      // The budget covers the statement's execution up to its first rows (a recursive query that never ends never
      // gets there). The rest of a result is read only as its pages are asked for, so a result scrolled for an hour
      // is not stopped; Cancel stops it.
      clearTimeout(timer)
      signal?.removeEventListener('abort', stop)
      // DuckDB has bound the statement's tables (a running scan keeps held batches alive), or it failed.
      for (const name of pinned) this.cache.unpin(name)
    }
  }

  /**
   * Each catalog table of a statement loaded (or kept) for DuckDB, by key: the SQL that reads it. Each is pinned in
   * the cache (its name added to `pinned`, for the caller to unpin once the statement has started) so loading the
   * next cannot let it go.
   */
  private async load(prepared: Prepared, pinned: string[], signal?: AbortSignal): Promise<Map<string, string>> {
    const names = new Map<string, string>()
    for (const table of new Map([...prepared.tables.values()].map((t) => [t.key, t])).values()) {
      const needs = prepared.needs.get(table.key)!
      const loaded = await this.cache.table(table.client, table.id, table.version, table.schema, table.rowCount, table.key, needs, signal).catch((error: unknown) => {
        throw signal?.aborted ? signal.reason : error
      })
      pinned.push(loaded.name)
      names.set(table.key, sourceOf(loaded.name, loaded.columns, table.schema))
    }
    return names
  }

  private keep(query: KeptQuery): void {
    this.queries.set(query.id, query)
    if (this.queries.size <= KEPT_QUERIES) return
    const oldest = [...this.queries.values()].find((q) => q.state !== 'running') ?? [...this.queries.values()][0]!
    this.close(oldest.id)
  }

  private query(queryId: string): KeptQuery {
    const query = this.queries.get(queryId)
    if (!query) throw new AppError('not_found', 'This query result is no longer kept', { hint: 'Run the query again' })
    return query
  }

  /** The SQL a kept query ran (Save as table of a shown result). */
  sqlOf(queryId: string): string {
    return this.query(queryId).sql
  }

  page(queryId: string, offset: number, limit: number): Promise<Uint8Array> {
    return this.query(queryId).page(offset, limit)
  }

  status(queryId: string): SqlQueryInfo {
    return this.query(queryId).info()
  }

  cancel(queryId: string): SqlQueryInfo | null {
    const query = this.queries.get(queryId)
    if (!query) return null
    query.cancel(new AppError('cancelled', 'The query was cancelled'))
    return query.info()
  }

  close(queryId: string): void {
    const query = this.queries.get(queryId)
    if (!query) return
    query.cancel(new AppError('cancelled', 'The query was closed'))
    this.queries.delete(queryId)
  }

  /**
   * A statement's whole result written to a Parquet file in the engine's own folder (the one place it may write),
   * for Save as table to import. The caller deletes the file.
   */
  async toParquet(client: NamespaceClient, catalog: string, sql: string, fileName: string, others?: OtherCatalogs): Promise<string> {
    const prepared = await this.prepare(client, catalog, sql, undefined, false, others)
    const pinned: string[] = []
    try {
      const names = await this.load(prepared, pinned)
      const rewritten = rewrite(sql, prepared.named.map((named) => replacement(named, names.get(prepared.tables.get(named)!.key)!, sql)))
      const engine = await this.open()
      const path = join(engine.folder, fileName)
      const connection = await engine.instance.connect()
      try {
        await connection.run(`COPY (${rewritten}) TO '${path.replaceAll("'", "''")}' (FORMAT parquet)`)
      } catch (error) {
        await rm(path, { force: true })
        throw sqlError(error, sql, rewritten, [])
      } finally {
        connection.closeSync()
      }
      return path
    } finally {
      for (const name of pinned) this.cache.unpin(name)
    }
  }

  async closeAll(): Promise<void> {
    for (const id of [...this.queries.keys()]) this.close(id)
    const engine = await this.engine?.catch(() => null)
    if (!engine) return
    engine.loader.closeSync()
    engine.instance.closeSync()
    engine.planner.closeSync()
    await rm(engine.folder, { recursive: true, force: true })
  }
}

/** The open catalog `lance(…, catalog => 'label')` names, or why there is none in words. */
function otherCatalog(others: OtherCatalogs, named: NamedTable): SqlCatalog {
  const label = named.catalog!
  const found = others.get(label)
  if (found) return found
  const span = { start: named.start, end: named.end }
  if (found === null) throw new AppError('invalid_input', `Two open catalogs are labelled "${label}"`, { span, hint: 'Close one of them, then run the query again' })
  const open = [...others.keys()].map((l) => `"${l}"`).join(', ')
  throw new AppError('invalid_input', `No other open catalog is labelled "${label}"`, {
    span,
    hint: open ? `The other open catalogs: ${open}` : 'Open that catalog too (File › Open…), then run the query again',
  })
}

/** Names the other open catalog a table came from (`lance('ns/t', catalog => 'label')`); nothing for the query's own. */
function catalogOf(table: SourcedTable): { catalog?: string } {
  return table.label !== undefined ? { catalog: table.label } : {}
}

function timeoutError(ms: number): AppError {
  return new AppError('timeout', `The query ran longer than its time budget (${Math.round(ms / 1000)} s) and was stopped`, { hint: 'Narrow the query, or raise LCB_SQL_TIMEOUT_S' })
}

/**
 * A loaded table as the statement sees it: every column of its stand-in, since a statement binds every column it
 * names though DuckDB's optimizer may read fewer (`sum(x)` under a `count(*)` is dropped, so the plan reads no `x`).
 * A column not read from Lance is a guard that fails in words if a plan ever reads it; unread, DuckDB drops it.
 */
function sourceOf(name: string, loaded: readonly string[], schema: Schema): string {
  const columns = schema.fields.flatMap((f) => {
    if (loaded.includes(f.name)) return [quoteIdent(f.name)]
    try {
      const message = `The column ${f.name} was not read from Lance for this query, which uses it: please report the query`
      return [`CAST(error('${message.replaceAll("'", "''")}') AS ${duckTypeOf(f.type, f.name).toString()}) AS ${quoteIdent(f.name)}`]
    } catch {
      return [] // a type SQL cannot read: the stand-in has no such column either
    }
  })
  return columns.length === loaded.length ? name : `(SELECT ${columns.join(', ')} FROM ${name})`
}

/** The name as written → the DuckDB table, keeping the name the query uses for it (its alias, or its own name). */
function replacement(named: NamedTable, table: string, sql: string): Replacement {
  const original = sql.slice(named.start, named.end)
  const alias = named.alias ? '' : ` AS ${quoteIdent(named.parts[named.parts.length - 1] ?? 't')}`
  return { start: named.start, end: named.end, text: `${table}${alias}`, original }
}

function displayOf(tables: Map<NamedTable, SourcedTable>, standIns: Map<string, string>, name: string): string {
  for (const table of tables.values()) if (standIns.get(table.key) === name) return [...table.id.namespace, table.id.name].join('.')
  return name
}
