/**
 * The catalog host: the desktop app's core (every catalog, every job, every read of a table) in a process of its
 * own, an Electron `utilityProcess` started by main (src/main/catalogHost.ts). A stall or a crash here never
 * freezes the window, the menus or the dialogs, which main keeps answering; main offers to start a new host.
 * It talks to main only (src/host/protocol.ts); files from outside are read one step further away, in reader
 * processes the import module starts.
 */
import { join, resolve } from 'node:path'
import type { EventName, Events, Result } from '../contract'
import { answersBytes } from '../contract/methods'
import { ConnectionStore, ensureDemoCatalog, ensureLanceThreads, FileSideCache, JsonFileConnectionRecords, mcpLauncherOf, ObjectStoreConnectionStore, SettingsFile, type SavedObjectStore } from '../core'
import { CatalogService } from '../core/service'
import { MainLink, type HostPort } from './mainLink'
import { forTransfer } from './transfer'
import type { PortCall, PortResult, ToHost } from './protocol'

// Before any table operation: Lance sizes its CPU pool once (see lanceThreads.ts).
ensureLanceThreads()

const link = new MainLink()
let service: CatalogService | null = null
let stopping = false

link.onMessage((message: ToHost, ports) => {
  switch (message.t) {
    case 'start':
      if (!service) void start(message)
      return
    case 'call':
      void call(message.id, message.method, message.input)
      return
    case 'answer':
      link.settle(message)
      return
    case 'stop':
      void stop()
      return
    case 'ping':
      link.post({ t: 'pong', at: message.at })
      return
    case 'port':
      if (ports[0]) servePort(ports[0])
      return
  }
})
// Main is gone (it quit, or it crashed): nothing can reach the window any more; end cleanly.
link.onDisconnect(() => void stop())

async function start(message: Extract<ToHost, { t: 'start' }>): Promise<void> {
  const { userData } = message
  const secrets = link.secretStore()
  service = new CatalogService({
    host: 'electron',
    version: message.version,
    // Run from a checkout (out/main/host.js two levels below it), the app can tell an assistant how to start `npm run mcp`.
    mcpLauncher: mcpLauncherOf(resolve(__dirname, '../..')),
    recents: new SettingsFile(join(userData, 'settings.json')),
    // Connection records hold no secrets; secrets are encrypted with safeStorage, which only main can reach.
    connections: new ConnectionStore(new JsonFileConnectionRecords(join(userData, 'connections.json')), secrets),
    objectStoreConnections: new ObjectStoreConnectionStore(new JsonFileConnectionRecords<SavedObjectStore>(join(userData, 'object-store-connections.json')), secrets),
    // Profiles and map coordinates per table version: beside the settings, never inside the user's catalog.
    sideCache: new FileSideCache(join(userData, 'cache')),
    emit: <E extends EventName>(name: E, payload: Events[E]) => link.post({ t: 'event', name, payload }),
    onCatalogsChanged: (open) => link.post({ t: 'catalogs', open }),
    pickDirectory: () => link.ask<string | null>({ op: 'pickDirectory' }),
    pickFiles: (filters) => link.ask<string[]>({ op: 'pickFiles', filters }),
    saveFile: (options) => link.ask<string | null>({ op: 'saveFile', ...options }),
  })
  if (message.reopen) {
    // After a restart, calls wait (in main) until the catalogs that were open are open again under their ids.
    await service.reopen(message.reopen, message.lostJobs).catch(() => undefined)
  } else {
    // The demo catalog is the embedded default; app/info and connections/list wait for it themselves while the
    // window shows a loading state, so calls may come at once.
    const demoRoot = join(userData, 'demo-catalog')
    service.openInitial(demoRoot, () => ensureDemoCatalog(demoRoot)).catch(() => {
      // kept by the service and reported through app/info
    })
  }
  link.post({ t: 'ready' })
}

async function call(id: number, method: unknown, input: unknown): Promise<void> {
  link.post({ t: 'result', id, result: await answer(method, input) })
}

async function answer(method: unknown, input: unknown): Promise<Result<unknown>> {
  const result: Result<unknown> = service
    ? await service.dispatch(method, input)
    : { ok: false, error: { code: 'unavailable', message: 'The catalog host is still starting', hint: 'Try again in a moment' } }
  return forTransfer(result)
}

/**
 * The window's own line to the host (a MessagePort main made and gave to both ends): its calls that answer bytes are
 * answered here directly, so a page's bytes are copied once on their way to the window, as when the core ran in main.
 * Only those: every other call (every write among them) comes through main. Bad input is refused by `dispatch` as on
 * every other path. A port whose window went away closes, and is let go.
 */
function servePort(port: HostPort): void {
  port.on('message', (event) => {
    const { id, method, input } = (event.data ?? {}) as Partial<PortCall>
    if (typeof id !== 'number') return
    const answering: Promise<Result<unknown>> =
      typeof method === 'string' && answersBytes(method)
        ? answer(method, input)
        : Promise.resolve({ ok: false, error: { code: 'permission_denied', message: `${String(method)} is not answered over the window's port`, hint: 'Call it through main' } })
    void answering.then((result) => {
      try {
        port.postMessage({ id, result } satisfies PortResult)
      } catch {
        // the window has gone
      }
    })
  })
  port.on('close', () => port.close())
  port.start()
}


/** Cancel the jobs (each cleans up after itself), close the catalogs, exit; bounded, so a stuck catalog cannot keep the process. */
async function stop(): Promise<void> {
  if (stopping) return
  stopping = true
  const bounded = new Promise((resolve) => setTimeout(resolve, 5_000).unref())
  await Promise.race([service?.closeAll().catch(() => undefined), bounded])
  process.exit(0)
}
