import { rm } from 'node:fs/promises'
import { Field, RecordBatch, Schema, Table, tableFromIPC } from 'apache-arrow'
import { AppError, MAX_SQL_PAGE_ROWS, MAX_SQL_RESULT_TABLE_ROWS, SQL_RESULTS_CONNECTION, type SqlQueryInfo, type SqlResultTable, type TableInfo } from '../../contract'
import { CATALOG_WRITES } from '../connections/readOnly'
import { DirNamespaceClient } from '../namespace/dir'
import { makeTempFolder, TEMP_PREFIXES } from '../tempFolders'

/** Result tables kept at once; the oldest is dropped first (each is also dropped with its query). */
const KEPT_TABLES = 8
/** Rows or IPC bytes gathered before one write into Lance: few versions and fragments, bounded memory. */
const WRITE_ROWS = 200_000
const WRITE_BYTES = 64 * 1024 * 1024

/** What the result tables need of the engine: a kept query's pages (`sql/page`) and state (`sql/status`). */
export interface ResultPages {
  page(queryId: string, offset: number, limit: number): Promise<Uint8Array>
  status(queryId: string): SqlQueryInfo
}

/**
 * Query results opened as tables: a finished result's rows are copied once, page by page, into a Lance table of a
 * hidden catalog in the app's temp folder (`lcb-results-…`, never the user's catalog; swept at the next start after
 * a kill), so the table's own Summary, Map and Export read it through the table contract unchanged, under the
 * connection id `SQL_RESULTS_CONNECTION`. Read-only for everything but this module. At most
 * `MAX_SQL_RESULT_TABLE_ROWS` rows (the rows a query keeps): a longer result is refused in words.
 */
export class ResultTables {
  private catalog: Promise<{ folder: string; client: DirNamespaceClient }> | null = null
  private opened: DirNamespaceClient | null = null
  private readonly tables = new Map<string, Promise<SqlResultTable>>()
  private next = 0

  constructor(private readonly pages: ResultPages) {}

  private open(): Promise<{ folder: string; client: DirNamespaceClient }> {
    this.catalog ??= (async () => {
      const folder = await makeTempFolder(TEMP_PREFIXES.results)
      const client = await DirNamespaceClient.open(folder, { create: true })
      this.opened = client
      return { folder, client }
    })()
    return this.catalog
  }

  /** The hidden catalog's client (`client(SQL_RESULTS_CONNECTION)`); none before a result was opened as a table. */
  client(): DirNamespaceClient {
    if (!this.opened) throw new AppError('not_found', 'No query result is open as a table', { hint: 'Run the query again' })
    return this.opened
  }

  /** Refuse a catalog write to a result table before it runs: a result is read-only (Save as table… keeps it). */
  guardWrite(method: string, input: unknown): void {
    if (!CATALOG_WRITES.has(method) || (input as { connectionId?: unknown }).connectionId !== SQL_RESULTS_CONNECTION) return
    throw new AppError('unsupported', 'A query result is read-only', { hint: 'Save as table… writes it into a namespace, where it can be changed' })
  }

  /** The result of `queryId` as a table, copied on the first call (which waits for the result to end). */
  table(queryId: string, signal?: AbortSignal): Promise<SqlResultTable> {
    const known = this.tables.get(queryId)
    if (known) return known.then((table) => ({ ...table, elapsedMs: 0 }))
    const made = this.copy(queryId, signal)
    this.tables.set(queryId, made)
    // A failed or cancelled copy is not kept: the next call tries again.
    made.catch(() => this.tables.get(queryId) === made && this.tables.delete(queryId))
    for (const oldest of [...this.tables.keys()].slice(0, Math.max(0, this.tables.size - KEPT_TABLES))) void this.drop(oldest)
    return made
  }

  private async copy(queryId: string, signal?: AbortSignal): Promise<SqlResultTable> {
    const started = Date.now()
    const { client } = await this.open()
    const id = { namespace: [] as string[], name: `query_result_${++this.next}` }
    let created = false
    let pending: Table[] = []
    let pendingBytes = 0
    let pendingRows = 0
    let schema: Schema | null = null
    const flush = async () => {
      const rows = pending.length === 1 ? pending[0]! : new Table(schema!, pending.flatMap((t) => t.batches))
      pending = []
      pendingBytes = 0
      pendingRows = 0
      if (created) await client.appendRows(id, rows, { signal })
      else await client.createTable(id, rows, { mode: 'create', signal })
      created = true
    }
    try {
      // Read to the end first (the query keeps what it read): a result longer than a table holds is refused before
      // anything is written, and a failed one answers its error.
      await this.pages.page(queryId, MAX_SQL_RESULT_TABLE_ROWS - 1, 1)
      const { rowCount, capped } = this.pages.status(queryId)
      if (capped || rowCount === null) throw tooLong()
      for (let offset = 0; offset < rowCount; ) {
        signal?.throwIfAborted()
        const bytes = await this.pages.page(queryId, offset, MAX_SQL_PAGE_ROWS)
        const page = tableFromIPC(bytes)
        if (page.numRows === 0) break
        schema ??= tableSchema(page.schema)
        const target = schema
        pending.push(new Table(target, page.batches.map((b) => new RecordBatch(target, b.data))))
        pendingRows += page.numRows
        pendingBytes += bytes.byteLength
        offset += page.numRows
        if (pendingBytes >= WRITE_BYTES || pendingRows >= WRITE_ROWS) await flush()
      }
      schema ??= tableSchema(tableFromIPC(await this.pages.page(queryId, 0, 1)).schema)
      if (pending.length > 0) await flush()
      if (!created) await client.createEmptyTable(id, schema!, { mode: 'create', signal })
      const d = await client.describeTable(id, { signal })
      const info: TableInfo = { name: d.name, namespace: d.namespace, rowCount: d.rowCount, version: d.version, schema: d.fields }
      const renamed = schema.fields.flatMap((f) => { const from = f.metadata.get(RENAMED_FROM); return from !== undefined ? [{ from, to: f.name }] : [] })
      return { queryId, tableRef: { connectionId: SQL_RESULTS_CONNECTION, namespace: [], name: id.name }, info, elapsedMs: Date.now() - started, ...(renamed.length ? { renamed } : {}) }
    } catch (error) {
      if (created) await client.dropTable(id).catch(() => undefined)
      throw signal?.aborted ? new AppError('cancelled', 'Opening the result as a table was cancelled') : error
    }
  }

  /** Drop the result table of `queryId` (its query was closed); unknown ids are ignored. */
  async drop(queryId: string): Promise<void> {
    const table = this.tables.get(queryId)
    if (!table) return
    this.tables.delete(queryId)
    const made = await table.catch(() => null)
    if (made) await this.opened?.dropTable({ namespace: [], name: made.tableRef.name }).catch(() => undefined)
  }

  async closeAll(): Promise<void> {
    this.tables.clear()
    const catalog = await this.catalog?.catch(() => null)
    this.catalog = null
    this.opened = null
    if (!catalog) return
    await catalog.client.close().catch(() => undefined)
    await rm(catalog.folder, { recursive: true, force: true })
  }
}

const RENAMED_FROM = 'lcb.renamedFrom'

/**
 * A page's schema as the result table's: without the page's metadata (done, row count), and a column whose name
 * holds a dot renamed with `_` (Lance refuses a dot in a top-level name: it reads as a struct's field), kept unique.
 */
function tableSchema(page: Schema): Schema {
  const taken = new Set(page.fields.map((f) => f.name))
  return new Schema(
    page.fields.map((f) => {
      if (!f.name.includes('.')) return f
      let name = f.name.replaceAll('.', '_')
      for (let n = 2; taken.has(name); n++) name = `${f.name.replaceAll('.', '_')}_${n}`
      taken.add(name)
      return new Field(name, f.type, f.nullable, new Map([[RENAMED_FROM, f.name]]))
    }),
  )
}

function tooLong(): AppError {
  const most = MAX_SQL_RESULT_TABLE_ROWS.toLocaleString('en-US')
  // A query stops reading at the rows it keeps, so a result that reaches them may hold more: "at least".
  return new AppError('unsupported', `This result has at least ${most} rows: the Summary, the Map and Export… open results of fewer rows than that`, {
    hint: 'Narrow the query (WHERE, LIMIT), or keep the whole result with Save as table… and open that table',
  })
}
