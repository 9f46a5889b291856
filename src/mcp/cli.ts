import { parseArgs } from 'node:util'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { storageOptionsFromFlags } from '../contract'
import { ensureLanceThreads } from '../core'
import { MIN_KEY_LENGTH, serveHttp } from './http'
import { buildMcpServer, openMcpContext } from './server'
import type { Source } from './source'

// Before any table operation: Lance sizes its CPU pool once (see lanceThreads.ts).
ensureLanceThreads()

const USAGE =
  'usage: npm run mcp -- (--root <dir or uri> [--storage-option key=value]… | --rest <url> [--header key=value]… [--header-env key=VAR]…)\n' +
  '                      [--allow-writes] [--import-from <dir>]… [--max-calls <n>] [--http --port <n> --api-key <key>]\n' +
  '  --root             a directory, file:///path, az://container/prefix, s3://bucket/prefix or gs://bucket/prefix\n' +
  '  --storage-option   one Lance storage option for an object-store root (repeatable)\n' +
  '  --rest             a REST catalog server (npm run serve) instead of --root\n' +
  '  --header           a header sent to the REST server (repeatable): x-api-key=…, authorization=Bearer …, x-service-database=…\n' +
  '  --header-env       a header whose value is read from an environment variable (repeatable), e.g. x-api-key=LCB_REST_API_KEY:\n' +
  '                     keeps the key out of the assistant\'s config file\n' +
  '  --allow-writes     list the write tools (create_namespace, import_file, add_rows, delete_rows); without it the catalog is read-only\n' +
  '  --import-from      a folder import_file may read files from (repeatable); none: import_file refuses\n' +
  '  --max-calls        calls that run at once (default 4); the rest wait their turn\n' +
  '  --http             serve the streamable HTTP transport on 127.0.0.1:<port>/mcp instead of stdio; needs --api-key\n' +
  '  --api-key          the key every HTTP request must carry (Authorization: Bearer <key>); at least 16 characters;\n' +
  '                     or set LCB_MCP_API_KEY'

function pairs(entries: string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const entry of entries) {
    const at = entry.indexOf('=')
    if (at <= 0) throw new Error(`${flag} must be key=value, got "${entry}"`)
    const key = entry.slice(0, at)
    if (key in out) throw new Error(`${flag} ${key} is given twice`)
    out[key] = entry.slice(at + 1)
  }
  return out
}


/** The REST headers: given ones, and those read from the environment (`--header-env name=VAR`). */
function restHeaders(given: string[], fromEnv: string[]): Record<string, string> {
  const headers = pairs(given, '--header')
  for (const [name, variable] of Object.entries(pairs(fromEnv, '--header-env'))) {
    const value = process.env[variable]
    if (value === undefined || value === '') throw new Error(`--header-env ${name}=${variable}: the environment variable ${variable} is not set`)
    if (name in headers) throw new Error(`--header ${name} is given twice`)
    headers[name] = value
  }
  return headers
}

function sourceOf(values: Record<string, string | string[] | boolean | undefined>): Source {
  const root = values.root as string | undefined
  const rest = values.rest as string | undefined
  if ((root === undefined) === (rest === undefined)) throw new Error('give exactly one of --root or --rest')
  if (root !== undefined) {
    if (values.header || values['header-env']) throw new Error('--header goes with --rest')
    return { root, storageOptions: storageOptionsFromFlags((values['storage-option'] as string[] | undefined) ?? []) }
  }
  if (values['storage-option']) throw new Error('--storage-option goes with --root')
  return { rest: rest!, headers: restHeaders((values.header as string[] | undefined) ?? [], (values['header-env'] as string[] | undefined) ?? []) }
}

/**
 * `npm run mcp -- --root <dir|uri> …`: the catalog as an MCP server, on stdio (the default: stdout is the protocol's,
 * so everything else goes to stderr) or on streamable HTTP (`--http`).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      root: { type: 'string' },
      'storage-option': { type: 'string', multiple: true },
      rest: { type: 'string' },
      header: { type: 'string', multiple: true },
      'header-env': { type: 'string', multiple: true },
      'allow-writes': { type: 'boolean' },
      'import-from': { type: 'string', multiple: true },
      'max-calls': { type: 'string' },
      http: { type: 'boolean' },
      port: { type: 'string' },
      'api-key': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) {
    console.error(USAGE)
    return
  }
  const maxCalls = values['max-calls'] === undefined ? undefined : Number(values['max-calls'])
  if (maxCalls !== undefined && (!Number.isInteger(maxCalls) || maxCalls < 1 || maxCalls > 64)) throw new Error(`--max-calls must be a whole number from 1 to 64, got "${values['max-calls']}"`)
  const apiKey = values['api-key'] ?? process.env.LCB_MCP_API_KEY
  const port = values.port === undefined ? 0 : Number(values.port)
  if (values.http) {
    if (!apiKey) throw new Error('--http needs --api-key <key> (or LCB_MCP_API_KEY): every request must carry it')
    if (apiKey.length < MIN_KEY_LENGTH) throw new Error(`--api-key must be at least ${MIN_KEY_LENGTH} characters`)
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a number from 0 to 65535, got "${values.port}"`)
  } else if (values.port !== undefined || values['api-key'] !== undefined) throw new Error('--port and --api-key go with --http')

  const ctx = await openMcpContext({ source: sourceOf(values), allowWrites: values['allow-writes'] ?? false, importFrom: values['import-from'], maxCalls })
  const mode = ctx.allowWrites ? 'writes allowed' : 'read-only'
  let stop: () => Promise<void>
  if (values.http) {
    const http = await serveHttp(() => buildMcpServer(ctx), { port, apiKey: apiKey! })
    console.error(`mcp: ${ctx.location} (${mode}) at ${http.url}`)
    // One line on stdout, as the harness and the server print theirs: scripts and tests read the URL from it.
    console.log(`mcp: ${http.url}`)
    stop = () => http.close()
  } else {
    const server = buildMcpServer(ctx)
    const transport = new StdioServerTransport()
    await server.connect(transport)
    console.error(`mcp: ${ctx.location} (${mode}) on stdio`)
    stop = () => server.close()
    // The client went away (closed our stdin): stop, aborting what runs (its scans are cancelled).
    process.stdin.once('end', () => void shutdown())
    process.stdin.once('close', () => void shutdown())
  }
  let stopping = false
  const shutdown = async () => {
    if (stopping) return
    stopping = true
    await stop().catch(() => undefined)
    await ctx.close().catch(() => undefined)
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown())
  process.on('SIGTERM', () => void shutdown())
}

main().catch((error: unknown) => {
  console.error(`mcp failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
