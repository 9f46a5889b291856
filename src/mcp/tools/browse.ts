import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { namespacePathSchema } from '../../contract'
import { cancellableCall, call, type McpContext } from '../context'
import { addTool, filterArg, json, readVersion, tableArgs, tableRef, versionArg } from './common'

const listArgs = {
  namespace: namespacePathSchema.default([]).describe('The namespace to list, outermost first; [] (the default) is the catalog root'),
  limit: z.number().int().min(1).max(1_000).optional().describe('At most this many names (default 200)'),
  page_token: z.string().max(4096).optional().describe('The next_page_token of the previous answer'),
}

/** Listing, describing and counting: the catalog's shape without reading rows. */
export function addBrowseTools(server: McpServer, ctx: McpContext): void {
  for (const [name, method, what] of [
    ['list_namespaces', 'namespaces/list', 'namespaces'],
    ['list_tables', 'tables/list', 'tables'],
  ] as const) {
    addTool(
      server,
      ctx,
      name,
      {
        title: `List ${what}`,
        description: `The ${what} directly inside a namespace of the catalog, in pages (next_page_token says there are more).`,
        inputSchema: listArgs,
      },
      async (args, signal) => {
        const limit = args.limit ?? 200
        const page = await cancellableCall(ctx, method, { connectionId: ctx.connectionId, namespace: args.namespace, limit, ...(args.page_token ? { pageToken: args.page_token } : {}) }, signal)
        return json({
          catalog: ctx.catalogName,
          namespace: args.namespace,
          [what]: page.items,
          ...(page.pageToken ? { next_page_token: page.pageToken, more: `more ${what}: call ${name} again with page_token` } : {}),
        })
      },
    )
  }

  addTool(
    server,
    ctx,
    'describe_table',
    {
      title: 'Describe a table',
      description: 'A table\'s schema (columns, types, vector dimensions), row count, version (and the latest version) and indexes.',
      inputSchema: { ...tableArgs, version: versionArg },
    },
    async (args) => {
      const info = await readVersion(ctx, args)
      const indexes = info.indexes ?? (await call(ctx, 'indexes/list', tableRef(ctx, args)).catch(() => undefined))
      return json({
        catalog: ctx.catalogName,
        namespace: info.namespace,
        table: info.name,
        version: info.version,
        latest_version: info.latestVersion ?? info.version,
        rows: info.rowCount,
        columns: info.schema,
        indexes: indexes ?? 'unknown (the catalog cannot tell)',
      })
    },
  )

  addTool(
    server,
    ctx,
    'count_rows',
    {
      title: 'Count rows',
      description: 'How many rows of a table (at a version) match a filter; without a filter, all of them.',
      inputSchema: { ...tableArgs, filter: filterArg, version: versionArg },
    },
    async (args, signal) => {
      const info = await readVersion(ctx, args)
      const view = { version: info.version, ...(args.filter?.trim() ? { filter: args.filter } : {}) }
      const count = await cancellableCall(ctx, 'tables/count', { ...tableRef(ctx, args), view }, signal)
      return json({ table: info.name, namespace: info.namespace, version: info.version, filter: args.filter ?? null, count })
    },
  )
}
