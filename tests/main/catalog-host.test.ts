import { cp } from 'node:fs/promises'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { EventName, HostStatus, JobInfo } from '../../src/contract'
import type { HostAsk } from '../../src/host/protocol'
import { CatalogHost, type HostProcess } from '../../src/main/catalogHost'
import { fork } from '../desktop/electron-stand-in/utility-process.cjs'
import { bundleScript, REPO } from '../helpers/bundle'
import { buildCatalog, ensureDemoCatalog, makeTempDir, removeDir } from '../helpers/catalog'

// Main's side of the catalog host, against the real host (src/host bundled) in a real child process, started the way
// the desktop rig's stand-in starts Electron's utility processes (process.parentPort over a Node IPC channel).

let hostBundle = ''
/** A demo catalog built once and copied into each userData: the host then opens it instead of building it. */
let demoSeed = ''
beforeAll(async () => {
  hostBundle = await bundleScript(join(REPO, 'src', 'host', 'index.ts'))
  demoSeed = join(await makeTempDir('lcb-host-demo-'), 'demo-catalog')
  await ensureDemoCatalog(demoSeed)
}, 120_000)
afterAll(() => removeDir(join(demoSeed, '..')))

const cleanup: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

/** A host over a fresh userData, with every event and question it sends recorded. */
async function startHost(options: { heartbeat?: { everyMs: number; silentMs: number } } = {}) {
  const userData = await makeTempDir('lcb-host-')
  await cp(demoSeed, join(userData, 'demo-catalog'), { recursive: true })
  const events: { name: EventName; payload: unknown }[] = []
  const asks: HostAsk[] = []
  const secrets = new Map<string, string>()
  const children: HostProcess[] = []
  const host = new CatalogHost({
    fork: () => {
      const child = fork(hostBundle, [], { stdio: ['ignore', 'inherit', 'pipe'] }) as unknown as HostProcess
      children.push(child)
      return child
    },
    userData,
    version: 'test',
    heartbeat: options.heartbeat,
    emit: (name, payload) => events.push({ name, payload }),
    answer: async (ask) => {
      asks.push(ask)
      if (ask.op === 'secret.set') secrets.set(ask.key, ask.value)
      if (ask.op === 'secret.get') return secrets.get(ask.key)
      if (ask.op === 'pickDirectory') return '/picked/by/the/user'
      return null
    },
  })
  host.start()
  cleanup.push(async () => {
    await host.stop(2_000)
    for (const child of children) if (child.pid) process.kill(child.pid, 'SIGKILL')
    await removeDir(userData)
  })
  const call = async <T>(method: string, input: object = {}): Promise<T> => {
    const result = await host.dispatch(method, input)
    if (!result.ok) throw Object.assign(new Error(result.error.message), result.error)
    return result.value as T
  }
  const statuses = () => events.filter((e) => e.name === 'host/status').map((e) => e.payload as HostStatus)
  return { host, userData, events, asks, secrets, call, statuses, children }
}

async function until(check: () => boolean, timeoutMs = 30_000): Promise<void> {
  const start = Date.now()
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('the catalog host process (main ↔ host)', { timeout: 120_000 }, () => {
  it('answers calls in its own process: pages cross as one exact ArrayBuffer, the dialogs and keychain are main’s', async () => {
    const { host, call, asks } = await startHost()
    const work = await makeTempDir()
    cleanup.push(() => removeDir(work))
    const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'points', rows: 300 }] })
    expect(host.pid).toBeGreaterThan(0)
    expect(host.pid).not.toBe(process.pid)
    const info = await call<{ host: string; initialConnection: { label: string } | null; canPickDirectory: boolean }>('app/info')
    expect(info).toMatchObject({ host: 'electron', initialConnection: { label: 'demo-catalog' }, canPickDirectory: true })

    const opened = await call<{ id: string }>('connections/openDirectory', { path: root })
    const page = await call<ArrayBuffer>('tables/page', { connectionId: opened.id, namespace: [], name: 'points', offset: 10, limit: 25 })
    expect(page).toBeInstanceOf(ArrayBuffer)
    const rows = tableFromIPC(new Uint8Array(page))
    expect(rows.numRows).toBe(25)
    expect(Number(rows.getChild('id')!.get(0))).toBe(10)

    // The host has no safeStorage and no window: it asks main.
    expect(await call('dialogs/pickDirectory')).toEqual({ path: '/picked/by/the/user' })
    expect(asks).toContainEqual({ op: 'pickDirectory' })
    // Bad input is refused by the host's own parsing, in words.
    expect(await host.dispatch('tables/page', { connectionId: '../..', namespace: [], name: 'points' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await host.dispatch('no/such', {})).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'Unknown method "no/such"' } })
  })

  it('killed mid-call: the call is answered `unavailable`, the window is told why; a restart reopens the catalogs under the same ids and keeps the lost jobs', async () => {
    const { host, call, events, statuses, children } = await startHost()
    const work = await makeTempDir()
    cleanup.push(() => removeDir(work))
    const root = await buildCatalog(join(work, 'catalog'), { tables: [{ namespace: [], name: 'points', rows: 2000, sample: { dimension: 64 } }] })
    const opened = await call<{ id: string }>('connections/openDirectory', { path: root })
    await call('connections/list')
    // A Summary job runs in the host; main follows it through its events.
    const job = await call<JobInfo>('profile/start', { connectionId: opened.id, namespace: [], name: 'points', view: {} })
    const pid = host.pid!
    const inFlight = host.dispatch('tables/count', { connectionId: opened.id, namespace: [], name: 'points', view: {} })
    process.kill(pid, 'SIGKILL')

    const answered = await inFlight
    // Either the count was answered before the kill, or it is refused in words; it never hangs.
    if (!answered.ok) expect(answered.error).toMatchObject({ code: 'unavailable', message: 'The catalog host is not running' })
    await until(() => statuses().some((s) => s.state === 'stopped'))
    expect(statuses().at(-1)).toMatchObject({ state: 'stopped', detail: expect.stringMatching(/^exit code 9/) })
    expect(await host.dispatch('connections/list', {})).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    const ended = events.filter((e) => e.name === 'jobs/progress').map((e) => e.payload as JobInfo)
    const profileEnded = ended.filter((j) => j.id === job.id).at(-1)!
    // A job that finished before the kill stays done; one cut off is recorded failed with why.
    if (profileEnded.state !== 'done') expect(profileEnded).toMatchObject({ state: 'failed', error: { code: 'unavailable', message: 'The catalog host stopped while this job ran' } })

    // Asked twice at once (a double click): one new host.
    const [first, second] = await Promise.all([host.dispatch('app/restartHost', {}), host.dispatch('app/restartHost', {})])
    expect([first, second]).toEqual([
      { ok: true, value: null },
      { ok: true, value: null },
    ])
    expect(host.pid).not.toBe(pid)
    expect(statuses().at(-1)).toEqual({ state: 'running', restarts: 1 })
    expect(children.filter((c) => c.pid !== undefined)).toHaveLength(1)
    // The catalogs open before, under the ids they had (which of the two opened first depends on the demo's build).
    const list = await call<{ id: string; label: string }[]>('connections/list')
    expect(Object.fromEntries(list.map((c) => [c.label, c.id]))).toEqual({ catalog: opened.id, 'demo-catalog': opened.id === 'c1' ? 'c2' : 'c1' })
    // The same id reads the same table in the new host.
    expect(await call('tables/count', { connectionId: opened.id, namespace: [], name: 'points', view: {} })).toBe(2000)
    const jobs = await call<JobInfo[]>('jobs/list')
    expect(jobs.find((j) => j.id === job.id)?.state).toBe(profileEnded.state)
    // A new catalog gets a new id, after the kept ones.
    const other = await buildCatalog(join(work, 'other'), { tables: [{ namespace: [], name: 't', rows: 1 }] })
    expect((await call<{ id: string }>('connections/openDirectory', { path: other })).id).toBe('c3')
  })

  it('a host whose loop does not answer is reported, comes back when it answers, and a restart ends it', async () => {
    const { host, call, statuses } = await startHost({ heartbeat: { everyMs: 100, silentMs: 600 } })
    await call('app/info')
    // (Opening the demo catalog at start may hold the host's loop past this test's short limit: start after it.)
    await until(() => statuses().at(-1)?.state !== 'unresponsive')
    const seen = statuses().length
    const pid = host.pid!
    process.kill(pid, 'SIGSTOP')
    try {
      await until(() => statuses().length > seen)
      expect(statuses().at(-1)).toMatchObject({ state: 'unresponsive', message: expect.stringContaining('not answering') })
      process.kill(pid, 'SIGCONT')
      await until(() => statuses().at(-1)?.state === 'running')
      expect(statuses().at(-1)).toEqual({ state: 'running', restarts: 0 })
      // Paused again, then restarted: the paused one is ended (SIGKILL reaches a stopped process), a new one answers.
      process.kill(pid, 'SIGSTOP')
      await until(() => statuses().at(-1)?.state === 'unresponsive')
      expect(await call('app/restartHost')).toBeNull()
    } finally {
      try {
        process.kill(pid, 'SIGCONT')
      } catch {
        // ended
      }
    }
    expect(host.pid).not.toBe(pid)
    expect(() => process.kill(pid, 0)).toThrow()
    expect(statuses().at(-1)).toEqual({ state: 'running', restarts: 1 })
    expect(statuses().filter((s) => s.state === 'stopped')).toEqual([])
    expect((await call<{ host: string }>('app/info')).host).toBe('electron')
  })

  it('saved secrets live with main: the host asks main to keep a key, and keeps none itself', async () => {
    const { call, secrets, asks, userData } = await startHost()
    const draft = { name: 'nowhere', endpoint: 'http://127.0.0.1:9/', auth: { kind: 'api-key', secret: 'sk-test-secret-1234567890' } }
    const saved = await call<{ id: string }>('connections/saved/save', { kind: 'rest', draft })
    expect(asks.filter((a) => a.op === 'secret.set')).toHaveLength(1)
    expect([...secrets.values()]).toEqual(['sk-test-secret-1234567890'])
    // The host's own files (the connection records, the settings) hold no secret.
    const { readdir, readFile } = await import('node:fs/promises')
    for (const name of await readdir(userData)) {
      if (name.endsWith('.json')) expect(await readFile(join(userData, name), 'utf8')).not.toContain('sk-test-secret')
    }
    expect((await call<{ id: string }[]>('connections/saved/list')).map((c) => c.id)).toEqual([saved.id])
  })

  it('quitting: the host closes its catalogs and exits; later calls are refused, never left waiting', async () => {
    const { host, call } = await startHost()
    await call('app/info')
    const pid = host.pid!
    await host.stop()
    expect(() => process.kill(pid, 0)).toThrow()
    const late = await Promise.race([host.dispatch('app/info', {}), new Promise((resolve) => setTimeout(() => resolve('waiting'), 5_000))])
    expect(late).toMatchObject({ ok: false, error: { code: 'unavailable' } })
  })
})
