import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { columnNameSchema, type ColumnProfile, type ProfileJobInfo } from '../../contract'
import { call, ToolError, waitForJob, type McpContext } from '../context'
import { addTool, filterArg, json, readVersion, tableArgs, tableRef, versionArg } from './common'

/** `profile_columns`: the Summary's numbers (nulls, distinct, min/max/mean, histograms, top values, vector norms). */
export function addProfileTool(server: McpServer, ctx: McpContext): void {
  addTool(
    server,
    ctx,
    'profile_columns',
    {
      title: 'Profile columns',
      description:
        "The app's Summary of a table (or of the rows a filter matches): per column nulls, distinct values, min/max/mean, a histogram, top values, " +
        'and for vectors their dimension and norms. One scan of the table, kept per version: asking again is instant.',
      inputSchema: {
        ...tableArgs,
        filter: filterArg,
        version: versionArg,
        columns: z.array(columnNameSchema).min(1).max(1_000).optional().describe('Only these columns of the answer (the scan reads them all)'),
        max_bytes: z.number().int().min(1_000).max(1_000_000).optional().describe('Stop adding columns before the answer passes this many bytes (default 48000)'),
      },
    },
    async (args, signal) => {
      const info = await readVersion(ctx, args)
      const view = { version: info.version, ...(args.filter?.trim() ? { filter: args.filter } : {}) }
      const started = await call(ctx, 'profile/start', { ...tableRef(ctx, args), view })
      const job = (started.state === 'done' ? started : await waitForJob(ctx, started.id, signal)) as ProfileJobInfo
      if (job.state !== 'done' || !job.result) {
        throw new ToolError(job.error ?? { code: job.state === 'cancelled' ? 'cancelled' : 'internal', message: `The profile scan ended ${job.state}` })
      }
      const wanted = args.columns ? new Set(args.columns) : undefined
      const unknown = args.columns?.filter((c) => !job.result!.columns.some((p) => p.name === c)) ?? []
      if (unknown.length > 0) throw new ToolError({ code: 'invalid_input', message: `No column named ${unknown.map((c) => `"${c}"`).join(', ')}`, hint: 'describe_table lists the columns' })
      const maxBytes = args.max_bytes ?? 48_000
      const columns: ColumnProfile[] = []
      let bytes = 0
      let left = 0
      for (const column of job.result.columns) {
        if (wanted && !wanted.has(column.name)) continue
        const size = json(column).length
        if (columns.length > 0 && bytes + size > maxBytes) left += 1
        else {
          columns.push(column)
          bytes += size
        }
      }
      return json({
        table: info.name,
        namespace: info.namespace,
        version: job.result.version,
        filter: job.result.filter,
        rows: job.result.rows,
        columns,
        ...(left > 0 ? { cut: { reason: `the answer reached max_bytes (${maxBytes})`, columns_left: left, how: 'call profile_columns again with columns naming the rest (the scan is kept: no second scan), or raise max_bytes' } } : {}),
      })
    },
  )
}
