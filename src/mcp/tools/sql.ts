import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { MAX_SQL_KEPT_ROWS, SQL_PAGE_META, sqlTextSchema, type SqlQueryInfo, type SqlTableRead } from '../../contract'
import { fromIpc } from '../../core/arrow'
import { call, cancellableCall, ToolError, type McpContext } from '../context'
import { answerWithRows, boundTable } from '../rows'
import { addTool, boundArgs } from './common'
import { boundsOf, DEFAULT_ROWS, MAX_ROWS } from './rows'

/** How a table version is named in SQL, so a next call can read exactly the versions this one read. */
export function pinnedName(read: SqlTableRead): string {
  const catalog = read.catalog !== undefined ? `, catalog => '${read.catalog.replaceAll("'", "''")}'` : ''
  return `lance('${[...read.namespace, read.name].join('/').replaceAll("'", "''")}', version => ${read.version}${catalog})`
}

/**
 * Run one query through the contract (`sql/run`, `sql/page`, `sql/close`): the app's SQL engine, which refuses
 * anything but a read. A client that cancels or goes away stops it — before its first rows through `requests/cancel`
 * (the query id is not known yet), after them through `sql/cancel` — and the kept result is always closed: one call
 * holds no memory past its answer, so the next page is the same query run again from an `offset`.
 */
async function runSql(ctx: McpContext, sql: string, offset: number, limit: number, signal: AbortSignal): Promise<{ info: SqlQueryInfo; bytes: Uint8Array }> {
  let info: SqlQueryInfo
  try {
    info = await cancellableCall(ctx, 'sql/run', { connectionId: ctx.connectionId, sql }, signal)
  } catch (error) {
    // The engine's refusals name the app's own ways to write (Save as table…, Export…): over MCP there are none.
    if (error instanceof ToolError && error.data.code === 'unsupported' && !error.data.hint) {
      throw new ToolError({ ...error.data, hint: 'run_sql runs one read-only query (SELECT, WITH, VALUES, FROM …); nothing is written over MCP' })
    }
    throw error
  }
  const queryId = info.queryId
  const cancel = () => void ctx.service.dispatch('sql/cancel', { queryId })
  signal.addEventListener('abort', cancel, { once: true })
  try {
    signal.throwIfAborted()
    const bytes = await call(ctx, 'sql/page', { queryId, offset, limit })
    return { info, bytes }
  } finally {
    signal.removeEventListener('abort', cancel)
    await ctx.service.dispatch('sql/close', { queryId })
  }
}

/** `run_sql`: one read-only SQL query over the catalog's tables, bounded like `query_rows`. */
export function addSqlTool(server: McpServer, ctx: McpContext): void {
  addTool(
    server,
    ctx,
    'run_sql',
    {
      title: 'Run a SQL query',
      description:
        "One read-only SQL query (DuckDB's dialect) over the catalog's tables: `ns.table` (quote names as \"ns 2\".\"t\"; a root table by its name), " +
        "an older version as lance('ns/table', version => 3). Joins, GROUP BY, window functions; no writes, files or settings (ATTACH, COPY, CREATE… are refused). " +
        `At most ${MAX_ROWS} rows per call (default ${DEFAULT_ROWS}) and max_bytes of JSON; the answer names the table versions it read, says when it was cut and the offset to ask for next ` +
        '(the same query runs again from there: ORDER BY keeps the order stable). Vectors are shown as dimension, norm and first values unless full_vectors.',
      inputSchema: {
        sql: sqlTextSchema.max(100_000).describe('One query, e.g. "SELECT category, count(*) FROM shop.items GROUP BY category ORDER BY 2 DESC"'),
        offset: z
          .number()
          .int()
          .min(0)
          .max(MAX_SQL_KEPT_ROWS - MAX_ROWS - 1, `must be below ${MAX_SQL_KEPT_ROWS - MAX_ROWS}: page further with LIMIT … OFFSET in the SQL`)
          .optional()
          .describe("Skip this many of the result's rows (default 0)"),
        limit: z.number().int().min(1).max(MAX_ROWS).optional().describe(`Rows to return (default ${DEFAULT_ROWS}, at most ${MAX_ROWS})`),
        ...boundArgs,
      },
    },
    async (args, signal) => {
      const offset = args.offset ?? 0
      const limit = args.limit ?? DEFAULT_ROWS
      // One row more than asked says whether more follow.
      const { info, bytes } = await runSql(ctx, args.sql, offset, limit + 1, signal)
      const table = fromIpc(bytes)
      const bounds = boundsOf(args)
      const page = boundTable(table, bounds)
      const more = page.rows.length > limit
      const rows = more ? page.rows.slice(0, limit) : page.rows
      const done = table.schema.metadata.get(SQL_PAGE_META.done) === 'true'
      const known = Number(table.schema.metadata.get(SQL_PAGE_META.rowCount))
      const reads = info.readVersions.map((r) => ({ namespace: r.namespace, table: r.name, version: r.version, ...(r.catalog !== undefined ? { catalog: r.catalog } : {}) }))
      const tail: Record<string, unknown> = {}
      if (page.cutForBytes > 0 || more) {
        const next = offset + rows.length
        const pinned = info.readVersions.length ? `; it reads the latest table versions again — to read exactly these, name them as ${info.readVersions.map(pinnedName).join(', ')}` : ''
        tail.cut = {
          reason: page.cutForBytes > 0 ? `the answer reached max_bytes (${bounds.maxBytes})` : `limit (${limit}) reached; more rows follow`,
          next_offset: next,
          how: `call run_sql again with the same sql and offset=${next} (ORDER BY keeps the order the same between calls${pinned}), raise max_bytes up to 1000000 / limit up to ${MAX_ROWS}, or narrow the query (WHERE, GROUP BY, LIMIT)`,
        }
      }
      if (page.cellsCut > 0) {
        tail.cells_cut = `${page.cellsCut} value(s) shown shortened: vectors as {dimension, norm, first} (full_vectors: true shows them whole), long text as {cut, chars} (max_cell_chars), binary as {bytes, first_base64}`
      }
      // Past the rows a query keeps, the result is not read on: its length is not known, only that it is at least that.
      const capped = info.capped === true || known >= MAX_SQL_KEPT_ROWS
      if (capped) tail.capped = `only the first ${MAX_SQL_KEPT_ROWS} rows of a result can be read by offset; page further with LIMIT … OFFSET in the SQL`
      const head = {
        read_versions: reads,
        columns: info.columns.map((c) => ({ name: c.name, type: c.type })),
        ...(done && !capped && Number.isFinite(known) ? { rows_in_result: known } : {}),
        offset,
        returned: rows.length,
      }
      return answerWithRows(head, rows, tail)
    },
  )
}
