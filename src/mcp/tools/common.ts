import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { componentSchema, MAX_PREDICATE_LENGTH, namespacePathSchema } from '../../contract'
import { toAppError } from '../../core'
import { call, ToolError, type McpContext } from '../context'

/** Every table tool names its table the same way: a namespace path (root: `[]`) and a name. */
export const tableArgs = {
  namespace: namespacePathSchema.default([]).describe('The namespace path, outermost first; [] (the default) is the catalog root'),
  table: componentSchema.describe('The table name'),
}

export const versionArg = z.number().int().min(1).optional().describe('A table version (default: the latest); every answer names the version it read')
export const filterArg = z
  .string()
  .max(MAX_PREDICATE_LENGTH)
  .optional()
  .describe("A SQL predicate in Lance's `where` dialect, e.g. \"price > 10 AND category = 'books'\"")

/** The bounds a row-returning tool accepts (see rows.ts). */
export const boundArgs = {
  full_vectors: z.boolean().optional().describe('Show vectors whole (default: dimension, norm and the first 8 values)'),
  max_cell_chars: z.number().int().min(16).max(100_000).optional().describe('Cut longer text and nested values (default 2000)'),
  max_bytes: z.number().int().min(1_000).max(1_000_000).optional().describe('Stop adding rows before the answer passes this many bytes (default 48000)'),
}

export type ToolBody<A> = (args: A, signal: AbortSignal) => Promise<string>

interface ToolConfig<S extends z.ZodRawShape> {
  title: string
  description: string
  inputSchema: S
  /** Write tools: listed only with `--allow-writes`, and marked destructive. */
  writes?: boolean
}

/**
 * Register a tool whose body answers JSON text. Every call waits its turn at the gate (at most `--max-calls` at once);
 * a refusal from the contract (bad filter, unknown version, read-only) becomes a tool error in words, never a crash.
 */
export function addTool<S extends z.ZodRawShape>(server: McpServer, ctx: McpContext, name: string, config: ToolConfig<S>, body: ToolBody<z.infer<z.ZodObject<S>>>): void {
  const annotations: ToolAnnotations = config.writes
    ? { title: config.title, readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false }
    : { title: config.title, readOnlyHint: true, openWorldHint: false }
  server.registerTool(name, { title: config.title, description: config.description, inputSchema: config.inputSchema, annotations }, (async (
    args: z.infer<z.ZodObject<S>>,
    extra: { signal: AbortSignal },
  ): Promise<CallToolResult> => {
    try {
      const text = await ctx.gate.run(() => body(args, extra.signal), extra.signal)
      return { content: [{ type: 'text', text }] }
    } catch (error) {
      return toolError(error)
    }
  }) as never)
}

/** A tool's failure as MCP says it: `isError` with the reason in words (and the contract's code, for programs). */
export function toolError(error: unknown): CallToolResult {
  const data = error instanceof ToolError ? error.data : toAppError(error).toData()
  const text = `${data.message}${data.hint ? `\nHint: ${data.hint}` : ''}\n(code: ${data.code})`
  return { isError: true, content: [{ type: 'text', text }] }
}

/** The version a read will use: the one asked for, checked to exist, or the latest. Every answer names it. */
export async function readVersion(ctx: McpContext, args: { namespace: string[]; table: string; version?: number }) {
  const info = await call(ctx, 'tables/describe', { connectionId: ctx.connectionId, namespace: args.namespace, name: args.table, ...(args.version ? { version: args.version } : {}) })
  return info
}

export function tableRef(ctx: McpContext, args: { namespace: string[]; table: string }) {
  return { connectionId: ctx.connectionId, namespace: args.namespace, name: args.table }
}

/** How to ask for the rest, in words an assistant can follow. */
export function nextCall(tool: string, offset: number, extra = ''): string {
  return `call ${tool} again with offset=${offset}${extra}`
}

export const json = (value: unknown): string => JSON.stringify(value)
