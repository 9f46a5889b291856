import type { Readable } from 'node:stream'
import { fail, ok } from '../../contract'
import { toAppError } from '../../core'
import type { HarnessRoute } from '../context'
import { tokensMatch } from '../security'

/** A comment line now and then keeps idle proxies and the browser from closing the event stream. */
const HEARTBEAT_MS = 15_000

/**
 * What a browser needs for import that a path-holding host does not:
 * - `POST /api/upload`: the raw body (application/octet-stream; file name in `x-file-name`, URI-encoded)
 *   is streamed to a staged upload → Result `{ uploadId, fileName, bytes }`. Pass `{ uploadId }` as the
 *   `source` of `import/preview` / `import/start`.
 * - `GET /api/events?token=…`: the contract's events (`jobs/progress`, …) as Server-Sent Events
 *   (`event: <name>`, `data: <JSON payload>`). EventSource cannot set headers, so this route alone
 *   also accepts the token as a query parameter (compared in constant time).
 */
export const importRoutes: HarnessRoute = async (app, ctx) => {
  // Own scope: the octet-stream parser (which hands the request stream through unread) and the big
  // body limit apply to the upload route only; the JSON API keeps its own parser and limit.
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload))
    // No body limit here: the octet-stream parser above never buffers (the body streams to a file), and
    // every other content type is refused before its body is read (security.ts), so the app's small
    // limit holds for everything that is buffered.
    scope.post('/api/upload', async (request, reply) => {
      ctx.requireToken(request.headers)
      reply.header('cache-control', 'no-store')
      const body = request.body as Readable | undefined
      if (!body || typeof (body as Readable).pipe !== 'function') {
        return reply.code(415).send(fail({ code: 'invalid_input', message: 'Send the file as the raw body (content-type application/octet-stream)' }))
      }
      const rawName = request.headers['x-file-name']
      let fileName = 'upload'
      try {
        if (typeof rawName === 'string' && rawName) fileName = decodeURIComponent(rawName)
      } catch {
        fileName = rawName as string
      }
      const length = request.headers['content-length']
      const size = length === undefined ? undefined : Number(length)
      // The browser went away mid-upload: stop writing and delete the partial file.
      const controller = new AbortController()
      const onClose = () => {
        if (!request.raw.complete) controller.abort()
      }
      request.raw.once('close', onClose)
      try {
        const staged = await ctx.service.imports.stageUpload(body, {
          fileName,
          size: Number.isFinite(size) ? size : undefined,
          signal: controller.signal,
        })
        return reply.type('application/json').send(ok(staged))
      } catch (error) {
        return reply.type('application/json').send(fail(toAppError(error).toData()))
      } finally {
        request.raw.off('close', onClose)
      }
    })
  })

  app.get<{ Querystring: { token?: string } }>('/api/events', async (request, reply) => {
    if (!tokensMatch(ctx.token, request.query.token)) ctx.requireToken(request.headers)
    reply.hijack()
    const out = reply.raw
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    out.write(': connected\n\n')
    const unsubscribe = ctx.events.subscribe((name, payload) => {
      out.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`)
    })
    const heartbeat = setInterval(() => out.write(': ping\n\n'), HEARTBEAT_MS)
    heartbeat.unref()
    request.raw.once('close', () => {
      clearInterval(heartbeat)
      unsubscribe()
    })
  })
}
