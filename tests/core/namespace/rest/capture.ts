import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Captured {
  method: string
  /** Raw path, exactly as sent (still encoded). */
  path: string
  query: string
  headers: http.IncomingHttpHeaders
  body: Buffer
}

export interface Scripted {
  status?: number
  headers?: Record<string, string>
  body?: string | Uint8Array | unknown
}

/**
 * A tiny real HTTP server on loopback that records every request and answers from a script
 * (a function of the request), so tests see exactly what our client puts on the wire.
 */
export async function captureServer(answer: (req: Captured, index: number) => Scripted = () => ({ body: {} })) {
  const requests: Captured[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const [path, query = ''] = (req.url ?? '').split('?') as [string, string?]
      const captured: Captured = { method: req.method ?? '', path, query, headers: req.headers, body: Buffer.concat(chunks) }
      requests.push(captured)
      const reply = answer(captured, requests.length - 1)
      if (reply === NEVER) return // hold the connection open (timeouts)
      const status = reply.status ?? 200
      let body: string | Uint8Array
      const headers = { ...(reply.headers ?? {}) }
      if (typeof reply.body === 'string' || reply.body instanceof Uint8Array) body = reply.body as string | Uint8Array
      else {
        body = JSON.stringify(reply.body ?? {})
        headers['content-type'] ??= 'application/json'
      }
      res.writeHead(status, headers)
      res.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Answer that never comes (for timeout tests). */
export const NEVER: Scripted = Object.freeze({})
