import { realpath } from 'node:fs/promises'
import { basename } from 'node:path'
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { CallGate, DEFAULT_LIMITS, type McpContext } from './context'
import { addPrompts } from './prompts'
import { addResources, catalogHost } from './resources'
import { openSource, type Source } from './source'
import { addBrowseTools } from './tools/browse'
import { addProfileTool } from './tools/profile'
import { addRowTools } from './tools/rows'
import { addSearchTools } from './tools/search'
import { addSqlTool } from './tools/sql'
import { addWriteTools } from './tools/writes'

export interface McpOptions {
  source: Source
  allowWrites?: boolean
  /** Folders `import_file` may read (`--import-from`). */
  importFrom?: string[]
  /** Calls at once (`--max-calls`); the rest queue. */
  maxCalls?: number
  version?: string
}

/** The read tools, always listed; the write tools only with `--allow-writes`. Names and schemas are stable (the user guide lists them). */
export const READ_TOOLS = ['list_namespaces', 'list_tables', 'describe_table', 'count_rows', 'query_rows', 'search_text', 'search_similar', 'profile_columns', 'run_sql'] as const
export const WRITE_TOOLS = ['create_namespace', 'import_file', 'add_rows', 'delete_rows'] as const

/** One MCP server over the catalog: tools, resources and the prompt. One per session (HTTP) or per process (stdio). */
export function buildMcpServer(ctx: McpContext, version = '0.0.0'): McpServer {
  const server = new McpServer(
    { name: 'lance-catalog', title: 'Lance Catalog Browser', version },
    {
      instructions:
        `A Lance catalog (${ctx.location}), read through Lance Catalog Browser's core. Start with list_tables or the table resources; ` +
        'describe_table before reading rows; every answer names the table version it read and says when it was cut; run_sql answers one read-only SQL query over the tables. ' +
        (ctx.allowWrites ? 'Writes are allowed (create_namespace, import_file, add_rows, delete_rows).' : 'Read-only: no tool changes the catalog.'),
    },
  )
  addBrowseTools(server, ctx)
  addRowTools(server, ctx)
  addSearchTools(server, ctx)
  addProfileTool(server, ctx)
  addSqlTool(server, ctx)
  if (ctx.allowWrites) addWriteTools(server, ctx)
  addResources(server, ctx)
  addPrompts(server, ctx)
  return server
}

/** The catalog opened and the context every server of this process shares (one gate: `--max-calls` holds across sessions). */
export async function openMcpContext(options: McpOptions): Promise<McpContext & { close(): Promise<void> }> {
  const allowWrites = options.allowWrites ?? false
  const { service, connection } = await openSource(options.source, allowWrites)
  const importFrom = await Promise.all((options.importFrom ?? []).map((folder) => realpath(folder)))
  return {
    service,
    connectionId: connection.id,
    catalogName: catalogHost(connection.label || basename(connection.location)),
    location: connection.location,
    allowWrites,
    importFrom,
    gate: new CallGate(options.maxCalls ?? DEFAULT_LIMITS.maxCalls),
    close: () => service.closeAll(),
  }
}
