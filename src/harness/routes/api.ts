import { isMethod } from '../../contract'
import { ARROW_STREAM } from '../../core/namespace'
import type { HarnessRoute } from '../context'

/**
 * `POST /api/<method>` (e.g. `/api/tables/page`): the JSON body is the method's input, handed raw to
 * `service.dispatch` (which parses it). A `Uint8Array` value is sent as binary Arrow IPC;
 * everything else, errors included, as the JSON Result envelope (HTTP 200: the envelope, not
 * the status, carries the outcome — as over IPC).
 */
export const apiRoute: HarnessRoute = (app, ctx) => {
  // A wildcard: method names may have more than two parts (`connections/saved/list`).
  app.post<{ Params: { '*': string } }>('/api/*', async (request, reply) => {
    ctx.requireToken(request.headers)
    const method = request.params['*']
    if (!isMethod(method)) {
      return reply.code(404).send({ ok: false, error: { code: 'invalid_input', message: `Unknown method "${method}"` } })
    }
    const result = await ctx.service.dispatch(method, request.body ?? {})
    reply.header('cache-control', 'no-store')
    if (result.ok && result.value instanceof Uint8Array) {
      return reply.type(ARROW_STREAM).send(Buffer.from(result.value.buffer, result.value.byteOffset, result.value.byteLength))
    }
    return reply.type('application/json').send(result)
  })
}
