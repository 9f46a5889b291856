import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import type { McpContext } from './context'
import { tableUri } from './resources'

/** `explore_table`: walks an assistant through describe → profile → sample, with the tools' own names. */
export function addPrompts(server: McpServer, ctx: McpContext): void {
  server.registerPrompt(
    'explore_table',
    {
      title: 'Explore a table',
      description: 'Get to know one table of the catalog: its shape, its columns\' numbers, then a few rows.',
      argsSchema: {
        table: z.string().min(1).max(1024).describe('The table name'),
        namespace: z.string().max(4096).optional().describe('Its namespace, parts joined by "." (empty: the catalog root)'),
      },
    },
    ({ table, namespace }) => {
      const path = namespace ? namespace.split('.').filter(Boolean) : []
      const args = JSON.stringify({ namespace: path, table })
      const text = [
        `Explore the table ${[...path, table].join('.')} of the Lance catalog "${ctx.catalogName}" (resource ${tableUri(ctx, path, table)}), in three steps:`,
        `1. describe_table ${args}: its columns and types, row count, version and indexes. Note the version and use it in every later call so all answers describe the same data.`,
        `2. profile_columns ${args} (with that version): nulls, distinct counts, ranges, top values and vector norms per column. Say which columns look like keys, categories, free text, measures or embeddings, and what looks wrong (many nulls, one value, outliers).`,
        `3. query_rows ${args} with limit 10 (and that version): a first look at real rows. If a column has a full-text index, try search_text; if it is a vector column, try search_similar with like_row 0.`,
        'Then summarise the table in a few sentences: what a row is, what the important columns mean, and what questions it can answer. Answers are bounded: when one says it was cut, ask for the rest only if you need it.',
      ].join('\n')
      return { messages: [{ role: 'user', content: { type: 'text', text } }] }
    },
  )
}
