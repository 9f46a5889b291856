import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js'
import { assertComponent } from '../core/namespace'
import { call, ToolError, type McpContext } from './context'
import { answerWithRows, boundedRows, DEFAULT_ROW_BOUNDS } from './rows'

/** Tables listed as resources at most (a bigger catalog is browsed with list_namespaces / list_tables). */
export const MAX_RESOURCES = 1_000
/** Rows in a table resource's sample. */
export const SAMPLE_ROWS = 5

/** A catalog's name as a URI's host: letters, digits, `.`, `_`, `-` (anything else becomes `-`). */
export function catalogHost(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^-+|-+$/g, '') || 'catalog'
}

/** `lance://<catalog>/<ns>/…/<table>`, each part URI-encoded. */
export function tableUri(ctx: McpContext, namespace: string[], table: string): string {
  return `lance://${ctx.catalogName}/${[...namespace, table].map(encodeURIComponent).join('/')}`
}

/** The table a URI names, each part checked against the component rule (no `..`, no separators). */
export function parseTableUri(ctx: McpContext, uri: string): { namespace: string[]; table: string } {
  const prefix = `lance://${ctx.catalogName}/`
  if (!uri.startsWith(prefix)) throw new McpError(ErrorCode.InvalidParams, `Not a table of this catalog: ${uri} (its tables are ${prefix}<namespace>/<table>)`)
  let parts: string[]
  try {
    parts = uri.slice(prefix.length).split('/').map(decodeURIComponent)
  } catch {
    throw new McpError(ErrorCode.InvalidParams, `The URI ${uri} is not well encoded`)
  }
  try {
    for (const part of parts) assertComponent(part)
  } catch (error) {
    throw new McpError(ErrorCode.InvalidParams, `${uri} does not name a table: ${(error as Error).message}`)
  }
  return { namespace: parts.slice(0, -1), table: parts[parts.length - 1]! }
}

/** Every table, namespace by namespace (breadth first), up to {@link MAX_RESOURCES}. */
async function allTables(ctx: McpContext): Promise<{ namespace: string[]; table: string }[]> {
  const found: { namespace: string[]; table: string }[] = []
  const queue: string[][] = [[]]
  while (queue.length > 0 && found.length < MAX_RESOURCES) {
    const namespace = queue.shift()!
    let pageToken: string | undefined
    do {
      const page = await call(ctx, 'tables/list', { connectionId: ctx.connectionId, namespace, limit: 1_000, ...(pageToken ? { pageToken } : {}) })
      for (const table of page.items) if (found.length < MAX_RESOURCES) found.push({ namespace, table })
      pageToken = found.length < MAX_RESOURCES ? page.pageToken : undefined
    } while (pageToken)
    const children = await call(ctx, 'namespaces/list', { connectionId: ctx.connectionId, namespace, limit: 1_000 }).catch(() => ({ items: [] as string[] }))
    for (const child of children.items) queue.push([...namespace, child])
  }
  return found
}

/** Each table as a resource whose read gives its schema and a small sample. */
export function addResources(server: McpServer, ctx: McpContext): void {
  const template = new ResourceTemplate(`lance://${ctx.catalogName}/{+path}`, {
    list: async () => {
      const tables = await ctx.gate.run(() => allTables(ctx))
      return {
        resources: tables.map(({ namespace, table }) => ({
          uri: tableUri(ctx, namespace, table),
          name: [...namespace, table].join('.'),
          title: `${[...namespace, table].join('.')} (table)`,
          description: `The schema and ${SAMPLE_ROWS} sample rows of ${[...namespace, table].join('.')}`,
          mimeType: 'application/json',
        })),
      }
    },
  })
  server.registerResource('table', template, { title: 'Lance table', description: 'A table of the catalog: its schema and a small sample', mimeType: 'application/json' }, async (uri, _variables, extra) => {
    const { namespace, table } = parseTableUri(ctx, uri.href)
    const text = await ctx.gate.run(() => tableSample(ctx, namespace, table), extra.signal).catch((error: unknown) => {
      if (error instanceof ToolError) throw new McpError(error.data.code === 'not_found' ? ErrorCode.InvalidParams : ErrorCode.InternalError, error.message)
      throw error
    })
    return { contents: [{ uri: uri.href, mimeType: 'application/json', text }] }
  })
}

async function tableSample(ctx: McpContext, namespace: string[], name: string): Promise<string> {
  const ref = { connectionId: ctx.connectionId, namespace, name }
  const info = await call(ctx, 'tables/describe', ref)
  const bytes = await call(ctx, 'tables/page', { ...ref, offset: 0, limit: SAMPLE_ROWS, version: info.version, view: { version: info.version } })
  const sample = boundedRows(bytes, DEFAULT_ROW_BOUNDS)
  return answerWithRows(
    { table: name, namespace, version: info.version, rows_in_table: info.rowCount, columns: info.schema, indexes: info.indexes ?? null, sample_rows: sample.rows.length },
    sample.rows,
    info.rowCount > sample.rows.length ? { more: `a sample of ${sample.rows.length} of ${info.rowCount} rows: query_rows reads the rest` } : {},
  )
}
