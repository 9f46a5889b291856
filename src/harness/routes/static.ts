import fastifyStatic from '@fastify/static'
import type { HarnessRoute } from '../context'

/** The built renderer (out/renderer) at `/`. */
export const staticRoute: HarnessRoute = async (app, ctx) => {
  await app.register(fastifyStatic, { root: ctx.rendererDir, index: 'index.html', wildcard: true })
}
