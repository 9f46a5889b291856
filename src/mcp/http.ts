import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'

/** Largest request body (an `add_rows` of 10,000 rows fits); a bigger one is refused before it is read whole. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024
/** Shortest API key accepted: a key an attacker on the machine could guess is no key. */
export const MIN_KEY_LENGTH = 16

export interface HttpMcp {
  url: string
  port: number
  close(): Promise<void>
}

/** Constant-time comparison; hashing first makes both sides the same length. */
function keysMatch(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false
  return timingSafeEqual(createHash('sha256').update(expected).digest(), createHash('sha256').update(given).digest())
}

/** The key a request carries: `Authorization: Bearer <key>` or `x-api-key: <key>`. */
function keyOf(request: IncomingMessage): string | undefined {
  const auth = request.headers.authorization
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '')
  const header = request.headers['x-api-key']
  return typeof header === 'string' ? header : undefined
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json', connection: 'close' })
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }))
}

/** Why a request is refused, from its head alone (before its body is read), or null. */
function refusal(request: IncomingMessage, port: number, key: string): [number, string] | null {
  // DNS rebinding: a page elsewhere that resolves to 127.0.0.1 still sends its own Host.
  const host = request.headers.host
  if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return [403, 'Forbidden host: connect to 127.0.0.1 or localhost']
  if (request.headers.origin !== undefined) return [403, 'Forbidden origin: web pages may not call this server']
  if (!keysMatch(key, keyOf(request))) return [401, 'Missing or wrong API key: send it as "Authorization: Bearer <key>" (the key given to --api-key)']
  if ((request.url ?? '').split('?')[0] !== '/mcp') return [404, 'The MCP endpoint is /mcp']
  if (request.method !== 'POST') return [405, 'This server is stateless: POST /mcp only']
  const length = Number(request.headers['content-length'] ?? 0)
  if (length > MAX_BODY_BYTES) return [413, `The request is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`]
  return null
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new Error(`The request is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`)
    chunks.push(chunk as Buffer)
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'))
}

/**
 * The streamable HTTP transport on 127.0.0.1, stateless: each POST gets a fresh MCP server over the shared catalog
 * (and its one call gate), so a client that goes away closes its response, which closes that server and aborts its
 * calls (their scans cancelled through `requests/cancel`). The API key is checked on every request.
 */
export async function serveHttp(build: () => McpServer, options: { port: number; apiKey: string }): Promise<HttpMcp> {
  if (options.apiKey.length < MIN_KEY_LENGTH) throw new Error(`--api-key must be at least ${MIN_KEY_LENGTH} characters`)
  let port = options.port
  const server: Server = createServer((request, response) => {
    const refused = refusal(request, port, options.apiKey)
    if (refused) return refuse(response, ...refused)
    void (async () => {
      let body: unknown
      try {
        body = await readJson(request)
      } catch (error) {
        return refuse(response, 400, `The body is not JSON: ${(error as Error).message}`)
      }
      const mcp = build()
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined })
      response.on('close', () => {
        void transport.close()
        void mcp.close()
      })
      await mcp.connect(transport)
      await transport.handleRequest(request, response, body)
    })().catch((error: unknown) => {
      if (!response.headersSent) refuse(response, 500, `The request failed: ${(error as Error).message}`)
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  const address = server.address()
  port = typeof address === 'object' && address ? address.port : options.port
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
