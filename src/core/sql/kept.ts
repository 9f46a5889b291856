import type { DuckDBConnection, DuckDBDataChunk, DuckDBResult } from '@duckdb/node-api'
import { AppError, MAX_SQL_KEPT_ROWS, SQL_PAGE_META, type SqlQueryInfo, type SqlQueryState, type SqlTableRead } from '../../contract'
import { schemaFields } from '../arrow'
import { pageBytes, resultSchema, type ResultColumns } from './page'

/** Rows a query keeps for paging; past them the result is not read further (its rows stream, they are not held). */
export const MAX_KEPT_ROWS = MAX_SQL_KEPT_ROWS
/** Rows read ahead of the furthest page asked for, so scrolling finds them ready. */
const READ_AHEAD_ROWS = 20_000

/**
 * One query kept for paging: its DuckDB connection and streaming result, and the chunks read so far. The result is
 * read as far as pages are asked for (and a little ahead), so the first rows show before a long result ends and a
 * huge one is never held whole; its end is known once read. Cancel interrupts DuckDB and frees the chunks.
 */
export class KeptQuery {
  state: SqlQueryState = 'running'
  private readonly chunks: { first: number; chunk: DuckDBDataChunk }[] = []
  private rows = 0
  private wanted = READ_AHEAD_ROWS
  private reading: Promise<void> | null = null
  private ended: number | null = null
  private error: AppError | null = null
  private waiters: (() => void)[] = []
  private result: DuckDBResult | null = null
  private closed = false
  /** DuckDB is running the statement (before its first chunk can be fetched). */
  private starting = false
  columns: ResultColumns = { names: [], types: [] }
  readVersions: SqlTableRead[] = []
  private readonly started = Date.now()

  constructor(
    readonly id: string,
    readonly connectionId: string,
    /** The user's SQL (as written, before its table names were replaced). */
    readonly sql: string,
    private readonly connection: DuckDBConnection,
    private readonly toError: (error: unknown) => AppError,
  ) {}

  /** Run `sql` (DuckDB works in its own threads: the event loop stays free) and read its first chunk. */
  async start(sql: string, readVersions: SqlTableRead[]): Promise<void> {
    this.readVersions = readVersions
    this.starting = true
    try {
      this.result = await this.connection.stream(sql)
    } catch (error) {
      this.starting = false
      if (this.state === 'running') {
        this.error = this.toError(error)
        this.finish('failed')
      }
      this.close()
      throw this.error ?? this.toError(error)
    }
    this.starting = false
    if (this.state !== 'running') {
      this.close()
      throw this.error!
    }
    this.columns = { names: this.result.deduplicatedColumnNames(), types: this.result.columnTypes() }
    await this.until(1)
    // A first chunk short of DuckDB's 2,048 rows is almost always the whole result: its end comes with the next
    // fetch, so the run answers done (and the row count) instead of a status call later.
    if (this.state === 'running' && this.rows < 2048) await this.until(this.rows + 1)
    // A failure while reading the first chunk (or a cancel meanwhile) is the run's answer.
    const state = this.state as SqlQueryState
    if (state === 'failed' || state === 'cancelled') throw this.error!
  }

  /** Read chunks until `rows` are known, the result ends, or the keep limit; resolves when it stops. */
  private pump(): Promise<void> {
    this.reading ??= (async () => {
      try {
        while (this.state === 'running' && this.rows < this.wanted) {
          if (this.rows >= MAX_KEPT_ROWS) break
          const chunk = await this.result!.fetchChunk()
          if (!chunk || chunk.rowCount === 0) {
            this.finish('done')
            break
          }
          this.chunks.push({ first: this.rows, chunk })
          this.rows += chunk.rowCount
          this.wake()
        }
      } catch (error) {
        if (this.state === 'running') {
          this.error = this.toError(error)
          this.finish(this.error.code === 'cancelled' ? 'cancelled' : 'failed')
        }
      } finally {
        this.reading = null
        if (this.state !== 'running') this.close()
        this.wake()
      }
    })()
    return this.reading
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter()
  }

  private finish(state: SqlQueryState): void {
    this.state = state
    this.ended = Date.now()
    // A fetch in flight ends first (interrupted); its end closes the connection.
    if (!this.reading && !this.starting) this.close()
  }

  private close(): void {
    if (this.closed) return
    this.closed = true
    this.connection.closeSync()
  }

  /** Wait until `rows` rows are known or the query stopped. */
  async until(rows: number): Promise<void> {
    this.wanted = Math.max(this.wanted, Math.min(MAX_KEPT_ROWS, rows + READ_AHEAD_ROWS))
    while (this.state === 'running' && this.rows < Math.min(rows, MAX_KEPT_ROWS)) {
      const woke = new Promise<void>((resolve) => this.waiters.push(resolve))
      void this.pump()
      await woke
    }
    if (this.state === 'running' && this.rows < this.wanted) void this.pump()
  }

  async page(offset: number, limit: number): Promise<Uint8Array> {
    if (offset >= MAX_KEPT_ROWS)
      throw new AppError('unsupported', `Only the first ${MAX_KEPT_ROWS.toLocaleString('en-US')} rows of a result can be shown`, {
        hint: 'Narrow the query (WHERE, LIMIT … OFFSET), or keep the whole result with Save as table…',
      })
    await this.until(offset + limit)
    if (this.state === 'failed' || this.state === 'cancelled') throw this.error ?? new AppError('cancelled', 'The query was cancelled')
    const meta = new Map([
      [SQL_PAGE_META.done, String(this.done)],
      [SQL_PAGE_META.rowCount, String(this.rows)],
    ])
    return pageBytes(this.columns, this.chunks, offset, limit, meta)
  }

  /** The whole result is known (read to its end, or to the keep limit: then `capped`). */
  get done(): boolean {
    return this.state === 'done' || (this.state === 'running' && this.rows >= MAX_KEPT_ROWS)
  }

  /** Stop a running query (DuckDB's interrupt) with `error` as its end, and free its rows. */
  cancel(error: AppError): void {
    if (this.state === 'running') {
      this.error = error
      this.connection.interrupt()
      this.finish(error.code === 'timeout' ? 'failed' : 'cancelled')
    }
    this.chunks.length = 0
    this.wake()
  }

  info(): SqlQueryInfo {
    const info: SqlQueryInfo = {
      queryId: this.id,
      connectionId: this.connectionId,
      state: this.state,
      columns: schemaFields(resultSchema(this.columns)),
      done: this.done,
      rowCount: this.done ? this.rows : null,
      rowsSoFar: this.rows,
      elapsedMs: (this.ended ?? Date.now()) - this.started,
      readVersions: this.readVersions,
    }
    if (this.rows >= MAX_KEPT_ROWS && this.state !== 'done') info.capped = true
    if (this.error) info.error = this.error.toData()
    return info
  }
}
