import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import Fastify, { type FastifyError } from 'fastify'
import { AppError, type StorageOptions } from '../contract'
import { CatalogService, FileSideCache, MemoryRecentsStore } from '../core/service'
import { mcpLauncherOf } from '../core'
import type { HarnessContext } from './context'
import { EventHub } from './events'
import { routes } from './routes'
import { newToken, refuse, tokensMatch } from './security'

export interface HarnessOptions {
  /** Directory catalog opened at start (a path, `file://`, or `az://` / `s3://` / `gs://` URI); a failure is shown by the UI, not fatal. */
  root?: string
  /** Storage options for an object-store `root` (`--storage-option key=value`). */
  storageOptions?: StorageOptions
  /** 0 or absent: a random free port. */
  port?: number
  /** The built renderer; default `out/renderer` of this repository. */
  rendererDir?: string
  /** Where results per table version (column profiles) are kept across runs (`--cache-dir`); memory only when absent. */
  cacheDir?: string
}

export interface Harness {
  /** Full URL to open, token in the fragment: `http://127.0.0.1:PORT/#token=…`. */
  url: string
  origin: string
  port: number
  token: string
  service: CatalogService
  close(): Promise<void>
}

const REPO_ROOT = resolve(__dirname, '../..')

export const DEFAULT_RENDERER_DIR = join(REPO_ROOT, 'out', 'renderer')

function appVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0'
  } catch {
    return '0.0.0'
  }
}

/**
 * The same contract as the Electron IPC, over loopback HTTP, so the real renderer runs in
 * Chromium against the real core (E2E tests, benchmarks). Listens on 127.0.0.1 only.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const rendererDir = resolve(options.rendererDir ?? DEFAULT_RENDERER_DIR)
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`The built renderer is missing (${join(rendererDir, 'index.html')}); run \`npm run build\` first`)
  }

  const events = new EventHub()
  const service = new CatalogService({
    host: 'harness',
    version: appVersion(),
    recents: new MemoryRecentsStore(),
    mcpLauncher: mcpLauncherOf(REPO_ROOT),
    emit: (name, payload) => events.publish(name, payload),
    ...(options.cacheDir ? { sideCache: new FileSideCache(options.cacheDir) } : {}),
  })
  if (options.root !== undefined) {
    // Kept by the service and reported through app/info: the UI shows it in place.
    await service.openInitial(options.root, undefined, options.storageOptions).catch(() => undefined)
  }

  const token = newToken()
  // forceCloseConnections: a browser's keep-alive sockets must not hold close() open.
  const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024, forceCloseConnections: true })
  let port = 0

  // Everything a request can be refused for is decided here, from its head, before any body is read;
  // a refused request's connection is closed, so an unread body is not drained either.
  app.addHook('onRequest', async (request, reply) => {
    const refusal = refuse(request, port, token)
    if (refusal) {
      reply.header('connection', 'close')
      const code = refusal.status === 401 ? 'unauthenticated' : refusal.status === 403 ? 'permission_denied' : 'invalid_input'
      return reply.code(refusal.status).type('application/json').send({ ok: false, error: { code, message: refusal.message } })
    }
  })

  // API errors keep the Result envelope shape, so the client has one way to read them.
  app.setErrorHandler((error: FastifyError, _request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    const code = status === 401 ? 'unauthenticated' : status < 500 ? 'invalid_input' : 'internal'
    void reply.code(status).send({ ok: false, error: { code, message: error.message } })
  })

  const ctx: HarnessContext = {
    service,
    token,
    events,
    rendererDir,
    requireToken(headers) {
      if (!tokensMatch(token, headers['x-harness-token'])) {
        throw Object.assign(new AppError('unauthenticated', 'Missing or wrong harness token; open the URL the harness printed'), {
          statusCode: 401,
        })
      }
    },
  }
  for (const route of routes) await route(app, ctx)

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 })
  const address = app.server.address()
  port = typeof address === 'object' && address ? address.port : 0
  const origin = `http://127.0.0.1:${port}`

  return {
    url: `${origin}/#token=${token}`,
    origin,
    port,
    token,
    service,
    async close() {
      await app.close()
      await service.closeAll()
    },
  }
}
