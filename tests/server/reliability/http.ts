import http from 'node:http'
import { KEY } from '../support'

export interface RawReply {
  status: number
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any
}

/**
 * One request through node:http (the path is sent verbatim; fetch would normalise it). A request that gets
 * no answer within `deadlineMs` rejects: that is a hang, which these tests exist to catch.
 */
export function request(
  base: string,
  method: string,
  path: string,
  init: { body?: Uint8Array | string; type?: string; key?: string | null; headers?: Record<string, string>; deadlineMs?: number } = {},
): Promise<RawReply> {
  const url = new URL(base)
  const headers: Record<string, string> = { ...(init.headers ?? {}) }
  if (init.key !== null) headers['x-api-key'] = init.key ?? KEY
  if (init.type) headers['content-type'] = init.type
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({ status: res.statusCode ?? 0, text, json: () => JSON.parse(text) })
      })
      res.on('error', reject)
    })
    req.setTimeout(init.deadlineMs ?? 20_000, () => req.destroy(new Error(`no answer to ${method} ${path} within ${init.deadlineMs ?? 20_000} ms (a hang)`)))
    req.on('error', reject)
    req.end(init.body)
  })
}

export const STREAM = 'application/vnd.apache.arrow.stream'

/**
 * A second client that keeps asking for the table list while an attack runs; `stop()` resolves with how
 * many answers it got and every failure it saw.
 */
export function bystander(base: string): { stop(): Promise<{ answered: number; failures: string[] }> } {
  let running = true
  let answered = 0
  const failures: string[] = []
  const loop = (async () => {
    while (running) {
      try {
        const r = await request(base, 'GET', '/v1/tables', { deadlineMs: 15_000 })
        if (r.status === 200) answered++
        else failures.push(`${r.status} ${r.text}`)
      } catch (error) {
        failures.push(String(error))
      }
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      return { answered, failures }
    },
  }
}
