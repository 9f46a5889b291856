import { realpath } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { isAbsolute, relative, sep } from 'node:path'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { z } from 'zod'
import { componentSchema, importModeSchema, MAX_PREDICATE_LENGTH, type ImportJobInfo } from '../../contract'
import { call, ToolError, waitForJob, type McpContext } from '../context'
import { addTool, json, tableArgs } from './common'

/** Most rows one `add_rows` call may carry (a bigger batch is a file: `import_file`). */
export const MAX_ADD_ROWS = 10_000

/**
 * The write tools, registered only with `--allow-writes` (and marked destructive). Each goes through the app's own
 * use-cases: a namespace through `namespaces/create`, rows and files through the import pipeline (`import/start`:
 * the name claim, a new table published by one rename, an append journalled so a crash rolls it back), deletes through
 * `rows/delete` (one Lance commit, under the app's one-write-per-table lock).
 */
export function addWriteTools(server: McpServer, ctx: McpContext): void {
  addTool(
    server,
    ctx,
    'create_namespace',
    {
      title: 'Create a namespace',
      description: 'Create a namespace (its parent must exist).',
      inputSchema: { namespace: z.array(componentSchema).min(1).max(64).describe('The new namespace path, outermost first') },
      writes: true,
    },
    async (args) => {
      await call(ctx, 'namespaces/create', { connectionId: ctx.connectionId, namespace: args.namespace })
      return json({ created: args.namespace })
    },
  )

  addTool(
    server,
    ctx,
    'import_file',
    {
      title: 'Import a file',
      description:
        'Import a CSV, JSON/JSONL, Parquet, Arrow or Excel file into a table: create (a new table; the default), overwrite, or append. ' +
        'The file must be inside a folder the server was started with (--import-from).',
      inputSchema: { ...tableArgs, path: z.string().min(1).max(4096).describe('The file, an absolute path'), mode: importModeSchema.optional().describe('create (default), overwrite or append') },
      writes: true,
    },
    async (args, signal) => {
      const path = await allowedPath(ctx, args.path)
      const job = await call(ctx, 'import/start', { connectionId: ctx.connectionId, namespace: args.namespace, name: args.table, source: { path }, mode: args.mode ?? 'create' })
      return importAnswer(await waitForJob(ctx, job.id, signal) as ImportJobInfo)
    },
  )

  addTool(
    server,
    ctx,
    'add_rows',
    {
      title: 'Add rows',
      description: `Append rows (JSON objects whose keys are the table's columns) to an existing table, at most ${MAX_ADD_ROWS} per call. All of them or none are written.`,
      inputSchema: { ...tableArgs, rows: z.array(z.record(z.string().min(1).max(1024), z.unknown())).min(1).max(MAX_ADD_ROWS).describe('The rows to add') },
      writes: true,
    },
    async (args, signal) => {
      const lines = `${args.rows.map((row) => JSON.stringify(row)).join('\n')}\n`
      const staged = await ctx.service.imports.stageUpload(Readable.from([Buffer.from(lines)]), { fileName: 'rows.jsonl', signal })
      const started = await ctx.service.dispatch('import/start', { connectionId: ctx.connectionId, namespace: args.namespace, name: args.table, source: { uploadId: staged.uploadId }, mode: 'append' })
      if (!started.ok) {
        await ctx.service.dispatch('import/discardUpload', { uploadId: staged.uploadId })
        throw new ToolError(started.error)
      }
      return importAnswer(await waitForJob(ctx, (started.value as ImportJobInfo).id, signal) as ImportJobInfo)
    },
  )
  addDeleteTool(server, ctx)
}

/** `delete_rows`: the rows a filter matches, in one commit (the app's `rows/delete`). */
export function addDeleteTool(server: McpServer, ctx: McpContext): void {
  addTool(
    server,
    ctx,
    'delete_rows',
    {
      title: 'Delete rows',
      description: "Delete the rows of a table that a filter matches (Lance's where dialect), all of them or none, as a new version; earlier versions keep them.",
      inputSchema: { ...tableArgs, filter: z.string().trim().min(1).max(MAX_PREDICATE_LENGTH).describe("The rows to delete, e.g. \"id = 42\" or \"created < '2024-01-01'\"") },
      writes: true,
    },
    async (args) => {
      const done = await call(ctx, 'rows/delete', { connectionId: ctx.connectionId, namespace: args.namespace, name: args.table, filter: args.filter })
      return json({ table: args.table, namespace: args.namespace, filter: args.filter, deleted: done.deleted, version: done.version })
    },
  )
}

function importAnswer(job: ImportJobInfo): string {
  if (job.state !== 'done' || !job.result) throw new ToolError(job.error ?? { code: job.state === 'cancelled' ? 'cancelled' : 'internal', message: `The import ended ${job.state}` })
  return json({ table: job.target.name, namespace: job.target.namespace, mode: job.mode, version: job.result.version, rows: job.result.rowCount })
}

/** A path `import_file` may read: absolute, and inside one of the `--import-from` folders once links are followed. */
async function allowedPath(ctx: McpContext, path: string): Promise<string> {
  if (ctx.importFrom.length === 0) {
    throw new ToolError({ code: 'permission_denied', message: 'This server reads no files', hint: 'Start it with --import-from <folder> to let import_file read the files in that folder' })
  }
  if (!isAbsolute(path)) throw new ToolError({ code: 'invalid_input', message: `The path must be absolute, got "${path}"` })
  const real = await realpath(path).catch(() => {
    throw new ToolError({ code: 'not_found', message: `No file at ${path}` })
  })
  for (const folder of ctx.importFrom) {
    const rel = relative(folder, real)
    if (rel && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel)) return real
  }
  throw new ToolError({ code: 'permission_denied', message: `${path} is outside the folders this server may read`, hint: `Put the file in ${ctx.importFrom.join(' or ')}` })
}
