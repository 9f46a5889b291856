import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { columnNameSchema, distanceMetricSchema, MAX_SEARCH_RESULTS, MAX_VECTOR_DIMENSION, type TableViewSpec } from '../../contract'
import { fromIpc } from '../../core/arrow'
import { call, cancellableCall, ToolError, type McpContext } from '../context'
import { vectorSummary } from '../rows'
import { addTool, readVersion, tableRef } from './common'
import { MAX_ROWS, readRows, rowArgs } from './rows'

const kArg = z.number().int().min(1).max(Math.min(MAX_SEARCH_RESULTS, MAX_ROWS)).optional().describe(`Results to return (default 10, at most ${Math.min(MAX_SEARCH_RESULTS, MAX_ROWS)})`)

/** Full-text and similarity search: the app's search box and **Find similar**, bounded like `query_rows`. */
export function addSearchTools(server: McpServer, ctx: McpContext): void {
  addTool(
    server,
    ctx,
    'search_text',
    {
      title: 'Full-text search',
      description: 'Rows matching words, ranked by relevance (_score, highest first). Needs a full-text (FTS) index on the columns searched; describe_table lists the indexes.',
      inputSchema: {
        ...rowArgs,
        query: z.string().min(1).max(4096).describe('The words to search for'),
        search_columns: z.array(columnNameSchema).max(64).optional().describe('Columns to search (default: every column with an FTS index)'),
        k: kArg,
      },
    },
    async (args, signal) => {
      const info = await readVersion(ctx, args)
      const k = args.k ?? 10
      const view: TableViewSpec = {
        version: info.version,
        ...(args.filter?.trim() ? { filter: args.filter } : {}),
        ...(args.columns ? { columns: args.columns } : {}),
        search: { kind: 'fts', query: args.query, k, ...(args.search_columns ? { columns: args.search_columns } : {}) },
      }
      return readRows(ctx, { tool: 'search_text', args, info, view, offset: 0, limit: k, extra: { query: args.query, filter: args.filter ?? null } }, signal)
    },
  )

  addTool(
    server,
    ctx,
    'search_similar',
    {
      title: 'Find similar rows',
      description:
        'The k rows nearest a vector (_distance, smallest first): give `vector`, or `like_row` (a row offset in the table at this version) to search with that row\'s vector. ' +
        'Uses the column\'s vector index when it has one unless exact is true; the answer says which search ran.',
      inputSchema: {
        ...rowArgs,
        column: columnNameSchema.describe('The vector column'),
        vector: z.array(z.number().finite()).min(1).max(MAX_VECTOR_DIMENSION).optional().describe('The query vector (its dimension must be the column\'s)'),
        like_row: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe('Search with the vector of the row at this offset'),
        metric: distanceMetricSchema.optional().describe('Distance: l2 (default), cosine or dot'),
        k: kArg,
        exact: z.boolean().optional().describe('Compare with every row (ignore the index): exact, slower'),
      },
    },
    async (args, signal) => {
      if ((args.vector === undefined) === (args.like_row === undefined)) {
        throw new ToolError({ code: 'invalid_input', message: 'Give exactly one of vector or like_row', hint: 'vector: the numbers to search with; like_row: the offset of a row whose vector to use' })
      }
      const info = await readVersion(ctx, args)
      const vector = args.vector ?? (await rowVector(ctx, args, info.version, args.column, args.like_row!, signal))
      const k = args.k ?? 10
      const search = { kind: 'vector' as const, column: args.column, vector, metric: args.metric ?? ('l2' as const), k, prefilter: true, ...(args.exact ? { bypassIndex: true } : {}) }
      const view: TableViewSpec = { version: info.version, ...(args.filter?.trim() ? { filter: args.filter } : {}), ...(args.columns ? { columns: args.columns } : {}), search }
      const plan = await call(ctx, 'tables/explain', { ...tableRef(ctx, args), view }).catch(() => undefined)
      const ran = args.exact ? 'exact (every row compared; the index was bypassed as asked)' : plan?.usesVectorIndex ? "indexed (the column's vector index; approximate)" : 'exact (every row compared: the column has no vector index in use)'
      const query = args.like_row !== undefined ? { like_row: args.like_row, vector: vectorSummary({ length: vector.length, get: (i) => vector[i] }) } : { vector: vectorSummary({ length: vector.length, get: (i) => vector[i] }) }
      return readRows(ctx, { tool: 'search_similar', args, info, view, offset: 0, limit: k, extra: { column: args.column, metric: search.metric, search: ran, query } }, signal)
    },
  )
}

/** The vector of the row at `offset` (a search "like this row"), read at the same version as the search. */
async function rowVector(ctx: McpContext, args: { namespace: string[]; table: string }, version: number, column: string, offset: number, signal: AbortSignal): Promise<number[]> {
  const bytes = await cancellableCall(ctx, 'tables/page', { ...tableRef(ctx, args), offset, limit: 1, version, view: { version, columns: [column] } }, signal)
  const table = fromIpc(bytes)
  if (table.numRows === 0) throw new ToolError({ code: 'not_found', message: `Version ${version} has no row at offset ${offset}`, hint: 'count_rows says how many rows it has' })
  const value = table.getChild(column)?.get(0) as { length: number; get(i: number): unknown } | null | undefined
  if (!value || typeof value.get !== 'function') throw new ToolError({ code: 'invalid_input', message: `Row ${offset} has no vector in column "${column}"` })
  return Array.from({ length: value.length }, (_, i) => Number(value.get(i)))
}
