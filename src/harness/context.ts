import type { FastifyInstance } from 'fastify'
import type { CatalogService } from '../core/service'
import type { EventHub } from './events'

/** What every route module receives. */
export interface HarnessContext {
  service: CatalogService
  /** The per-run secret the API requires (header `x-harness-token`). */
  token: string
  /** Contract events the service publishes (`jobs/progress`); `GET /api/events` forwards them. */
  events: EventHub
  /** Directory of the built renderer (out/renderer). */
  rendererDir: string
  /** Throws (401) unless the request carries the token; call it first in every API route. */
  requireToken(headers: Record<string, string | string[] | undefined>): void
}

/**
 * A route module adds routes to the harness. Add one by writing `routes/<name>.ts` exporting a
 * `HarnessRoute` and listing it in `routes/index.ts`. Host checking is global (server.ts);
 * token checking is per API route via `ctx.requireToken` so static files stay loadable.
 */
export type HarnessRoute = (app: FastifyInstance, ctx: HarnessContext) => void | Promise<void>
