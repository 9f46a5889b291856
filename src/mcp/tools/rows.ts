import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { columnNameSchema, sortKeySchema, type TableInfo, type TableViewSpec } from '../../contract'
import { cancellableCall, type McpContext } from '../context'
import { answerWithRows, boundedRows, DEFAULT_ROW_BOUNDS, type RowBounds } from '../rows'
import { addTool, boundArgs, filterArg, readVersion, tableArgs, tableRef, versionArg } from './common'

/** Most rows one answer may ask for; more is a refusal that names this limit (page with `offset`). */
export const MAX_ROWS = 500
export const DEFAULT_ROWS = 20

export const rowArgs = {
  ...tableArgs,
  columns: z.array(columnNameSchema).min(1).max(1_000).optional().describe('Only these columns, in this order (default: all)'),
  filter: filterArg,
  version: versionArg,
  ...boundArgs,
}

type BoundInput = { full_vectors?: boolean; max_cell_chars?: number; max_bytes?: number }

export function boundsOf(args: BoundInput): RowBounds {
  return {
    fullVectors: args.full_vectors ?? DEFAULT_ROW_BOUNDS.fullVectors,
    maxCellChars: args.max_cell_chars ?? DEFAULT_ROW_BOUNDS.maxCellChars,
    maxBytes: args.max_bytes ?? DEFAULT_ROW_BOUNDS.maxBytes,
  }
}

export interface ReadRequest {
  tool: string
  args: { namespace: string[]; table: string } & BoundInput
  info: TableInfo
  view: TableViewSpec
  offset: number
  limit: number
  /** Extra fields of the answer (the search said, the sort…). */
  extra?: Record<string, unknown>
}

/**
 * Read `limit` rows of a view at `offset` (one more, to know whether more follow), bounded by rows and bytes, and say
 * where the answer was cut and how to get the rest. Every answer names the version it read.
 */
export async function readRows(ctx: McpContext, request: ReadRequest, signal: AbortSignal): Promise<string> {
  const { info, view, offset, limit, tool } = request
  const bytes = await cancellableCall(ctx, 'tables/page', { ...tableRef(ctx, request.args), offset, limit: limit + 1, view, version: info.version }, signal)
  const bounds = boundsOf(request.args)
  const page = boundedRows(bytes, bounds)
  const more = page.rows.length > limit
  const rows = more ? page.rows.slice(0, limit) : page.rows
  const shown = rows.length
  const cut: Record<string, unknown> = {}
  if (page.cutForBytes > 0 || more) {
    const next = offset + shown
    cut.cut = {
      reason: page.cutForBytes > 0 ? `the answer reached max_bytes (${bounds.maxBytes})` : `limit (${limit}) reached; more rows follow`,
      next_offset: next,
      how: `call ${tool} again with offset=${next} (same version ${info.version}${view.filter ? ' and filter' : ''}${view.sort ? ' and sort' : ''}), or raise max_bytes up to 1000000 / limit up to ${MAX_ROWS}`,
    }
  }
  if (page.cellsCut > 0) {
    cut.cells_cut = `${page.cellsCut} value(s) shown shortened: vectors as {dimension, norm, first} (full_vectors: true shows them whole), long text as {cut, chars} (max_cell_chars), binary as {bytes, first_base64}`
  }
  const head = { table: info.name, namespace: info.namespace, version: info.version, offset, ...request.extra, returned: shown }
  return answerWithRows(head, rows, cut)
}

/** `query_rows`: rows of a table view, the app's grid as an assistant reads it. */
export function addRowTools(server: McpServer, ctx: McpContext): void {
  addTool(
    server,
    ctx,
    'query_rows',
    {
      title: 'Read rows',
      description:
        `Rows of a table: chosen columns, filtered, sorted, from an offset. At most ${MAX_ROWS} rows per call (default ${DEFAULT_ROWS}) and max_bytes of JSON; ` +
        'the answer says when it was cut and the offset to ask for next. Vectors are shown as dimension, norm and first values unless full_vectors.',
      inputSchema: {
        ...rowArgs,
        sort: z.array(sortKeySchema).max(8).optional().describe('Sort keys, e.g. [{"column":"price","direction":"desc"}]'),
        offset: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional().describe('Skip this many rows of the view (default 0)'),
        limit: z.number().int().min(1).max(MAX_ROWS).optional().describe(`Rows to return (default ${DEFAULT_ROWS}, at most ${MAX_ROWS})`),
      },
    },
    async (args, signal) => {
      const info = await readVersion(ctx, args)
      const view: TableViewSpec = {
        version: info.version,
        ...(args.filter?.trim() ? { filter: args.filter } : {}),
        ...(args.sort?.length ? { sort: args.sort } : {}),
        ...(args.columns ? { columns: args.columns } : {}),
      }
      return readRows(ctx, { tool: 'query_rows', args, info, view, offset: args.offset ?? 0, limit: args.limit ?? DEFAULT_ROWS, extra: { filter: args.filter ?? null, sort: args.sort ?? null } }, signal)
    },
  )
}
