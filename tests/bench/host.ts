/**
 * The desktop app's process model (#43): the core runs in a catalog host process, main only orchestrates.
 * - **Page path through the isolated host**: the BUILT host (out/main/host.js) in a process of its own (started as the
 *   desktop rig starts Electron's utility processes, whose large messages cross shared memory as Mojo's do) answers
 *   `tables/page` over the window's port (a MessageChannelMain main made; this process plays the window) → the page as
 *   one exact ArrayBuffer → apache-arrow decode; versus the bare `table.query().offset(k).limit(n).toArrow()` of the
 *   same page, interleaved (ABBA), target ≤ 1.1×. Also through main (host → main → a clone to the window: one hop
 *   more) and in one process (what the app did before the host had its own: readPage → clone → decode).
 * - **Main's event-loop delay** on the desktop rig (the built main and preload, the real host; the stand-in samples
 *   main's loop with `monitorEventLoopDelay`, 10 ms resolution) while the host runs the Summary of the 1M-row table
 *   and then imports a 1M-row Arrow file, both started from the window through the preload; target p99 ≤ 16 ms.
 *
 * Needs `npm run build` and Chromium (the rig's window). Knobs: BENCH_ROWS (1,000,000), BENCH_DIM (768) for the
 * table (bench/data.ts), BENCH_PAGE_ROWS (200), BENCH_REPS (61); the imported file is bench/import.ts's (BENCH_ROWS rows,
 * 768-d). Quick run: `BENCH_ROWS=20000 npm run bench -- host`.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import * as v8 from 'node:v8'
import * as lancedb from '@lancedb/lancedb'
import { tableFromIPC, type Table } from 'apache-arrow'
import { PORT_CHANNEL } from '../../src/contract/channels'
import { exactArrayBuffer } from '../../src/core/arrow'
import { ensureDemoCatalog } from '../../src/core'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import type { JobInfo, Result } from '../../src/contract'
import type { PortResult } from '../../src/host/protocol'
import { CatalogHost, type HostProcess } from '../../src/main/catalogHost'
import { fork } from '../desktop/electron-stand-in/utility-process.cjs'
import { MessageChannelMain, type MessagePortMain } from '../desktop/electron-stand-in/message-ports.cjs'
import { BENCH_TABLE, ensureRowsCatalog } from './data'
import { benchFile } from './import'
import { compare, count, envInt, loadAverages, ms, ratio, time, verdict, type BenchContext, type Report, type Section } from './lib'

const PAGE_TARGET = 1.1
const DELAY_TARGET_MS = 16
const ROOT = resolve(__dirname, '..', '..')
const HOST_BUILT = join(ROOT, 'out', 'main', 'host.js')

/** The desktop rig (tests/desktop/rig), loaded at run time: its sources are typed for the browser and Playwright. */
interface RigApp {
  window(): Promise<import('@playwright/test').Page>
  mainLoopDelay(reset?: boolean): Promise<{ p50: number; p99: number; max: number; count: number } | null>
  dispose(): Promise<void>
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: not part of this program's types
const rig = () => require('../desktop/rig/rig') as { launchRig(options: { userData: string; loopDelay?: boolean }): Promise<RigApp> }

function settings() {
  return {
    rows: envInt('BENCH_ROWS', 1_000_000),
    dim: envInt('BENCH_DIM', 768),
    pageRows: envInt('BENCH_PAGE_ROWS', 200),
    reps: envInt('BENCH_REPS', 61),
  }
}
type Settings = ReturnType<typeof settings>

/** A demo catalog made once in the cache, copied into each userData (the host opens it instead of building it). */
async function demoSeed(ctx: BenchContext): Promise<string> {
  const seed = join(ctx.dir, 'demo-seed', 'demo-catalog')
  if (!existsSync(`${seed}.ready`)) {
    await rm(seed, { recursive: true, force: true })
    await ensureDemoCatalog(seed)
    await writeFile(`${seed}.ready`, new Date().toISOString())
  }
  return seed
}

async function pageSection(ctx: BenchContext, s: Settings, root: string, notes: string[]): Promise<Report['tables']> {
  const userData = await mkdtemp(join(tmpdir(), 'lcb-bench-host-'))
  await cp(await demoSeed(ctx), join(userData, 'demo-catalog'), { recursive: true })
  const host = new CatalogHost<MessagePortMain>({
    fork: () => fork(HOST_BUILT, [], { stdio: ['ignore', 'inherit', 'inherit'] }) as unknown as HostProcess,
    userData,
    version: 'bench',
    emit: () => undefined,
    answer: async () => null,
    channel: () => new MessageChannelMain(),
  })
  host.start()
  // The window's port to the host: this process plays the window (its end stays here).
  let windowPort: MessagePortMain | null = null
  await host.dispatch('app/info', {})
  host.connect({ postMessage: (_channel, _message, [port]) => (windowPort = port ?? null) }, PORT_CHANNEL)
  const port = windowPort as MessagePortMain | null
  if (!port) throw new Error('the host gave no port')
  const waiting = new Map<number, (result: Result<unknown>) => void>()
  let nextCall = 1
  port.on('message', ({ data }: { data: PortResult }) => {
    waiting.get(data.id)?.(data.result)
    waiting.delete(data.id)
  })
  port.start()
  const overPort = (method: string, input: object) =>
    new Promise<Result<unknown>>((resolvePromise) => {
      const id = nextCall++
      waiting.set(id, resolvePromise)
      port.postMessage({ id, method, input })
    })
  const call = async <T>(method: string, input: object): Promise<T> => {
    const result = await host.dispatch(method, input)
    if (!result.ok) throw new Error(`${method}: ${result.error.message}`)
    return result.value as T
  }
  const { id: connectionId } = await call<{ id: string }>('connections/openDirectory', { path: root })
  const client = await DirNamespaceClient.open(root)
  const db = await lancedb.connectNamespace('dir', { root })
  const bare = await db.openTable(BENCH_TABLE.name, [...BENCH_TABLE.namespace])
  const { rowCount } = await client.describeTable(BENCH_TABLE)
  notes.push(`table: ${count(rowCount)} rows × ${s.dim}-d vectors; ${count(s.pageRows)}-row pages; ${s.reps} interleaved reps (ABBA), medians of per-rep ratios; host pid ${host.pid} (main here is this process)`)

  const rows: (string | number)[][] = []
  for (const offset of [0, Math.floor(rowCount / 2), Math.max(0, rowCount - 100)]) {
    const expected = Math.min(s.pageRows, rowCount - offset)
    const check = (page: Table) => {
      if (page.numRows !== expected) throw new Error(`page at ${offset} has ${page.numRows} rows, expected ${expected}`)
    }
    const input = { connectionId, namespace: [...BENCH_TABLE.namespace], name: BENCH_TABLE.name, offset, limit: s.pageRows }
    const throughPort = async () => {
      const result = await overPort('tables/page', input)
      if (!result.ok) throw new Error(result.error.message)
      check(tableFromIPC(new Uint8Array(result.value as ArrayBuffer)))
    }
    const throughMain = async () => {
      const buffer = await call<ArrayBuffer>('tables/page', input)
      // main → window: Electron's IPC clones it once more.
      check(tableFromIPC(new Uint8Array(v8.deserialize(v8.serialize(buffer)) as ArrayBuffer)))
    }
    const inOneProcess = async () => {
      const bytes = await client.readPage(BENCH_TABLE, { offset, limit: s.pageRows })
      check(tableFromIPC(new Uint8Array(v8.deserialize(v8.serialize(exactArrayBuffer(bytes))) as ArrayBuffer)))
    }
    const bareQuery = () => bare.query().offset(offset).limit(s.pageRows).toArrow()
    const isolated = await compare(throughPort, bareQuery, { reps: s.reps, warmup: 5 })
    const viaMain = await compare(throughMain, bareQuery, { reps: s.reps, warmup: 5 })
    const single = await compare(inOneProcess, bareQuery, { reps: s.reps, warmup: 5 })
    rows.push([
      count(offset),
      count(expected),
      ms(isolated.bare),
      ms(isolated.ours),
      ratio(isolated.ratio),
      ms(viaMain.ours),
      ratio(viaMain.ratio),
      ms(single.ours),
      ratio(single.ratio),
      verdict(isolated.ratio, PAGE_TARGET),
    ])
  }
  db.close()
  await client.close()
  await host.stop()
  await rm(userData, { recursive: true, force: true })
  return [
    {
      title: 'Page latency (ms) from the catalog host process to the window vs bare query().offset().limit().toArrow()',
      columns: ['offset', 'rows', 'bare', 'over the window’s port (the app’s path)', 'ratio', 'through main (2 hops)', 'ratio', 'one process (before #43)', 'ratio', 'verdict (the app’s path)'],
      rows,
    },
  ]
}

async function loopSection(ctx: BenchContext, s: Settings, root: string, notes: string[]): Promise<Report['tables']> {
  ctx.log('the import bench\'s Arrow file (made once)…')
  const file = benchFile(ctx.dir, s.rows)
  const userData = await mkdtemp(join(tmpdir(), 'lcb-bench-rig-'))
  await cp(await demoSeed(ctx), join(userData, 'demo-catalog'), { recursive: true })
  // A copy of the catalog: the import adds a table, and the Summary keeps a profile beside the settings.
  const catalog = join(userData, 'catalog')
  await cp(root, catalog, { recursive: true })
  let app: RigApp | null = null
  try {
    app = await rig().launchRig({ userData, loopDelay: true })
    const page = await app.window()
    await page.getByRole('tree').waitFor({ timeout: 120_000 })
    const invoke = <T>(method: string, input: object) =>
      page.evaluate(
        async ([m, i]) => {
          const result = (await (globalThis as unknown as { catalog: { invoke(m: string, i: object): Promise<{ ok: boolean; value?: unknown; error?: { message: string } }> } }).catalog.invoke(m, i)) as {
            ok: boolean
            value?: unknown
            error?: { message: string }
          }
          if (!result.ok) throw new Error(`${m}: ${result.error?.message}`)
          return result.value
        },
        [method, input] as const,
      ) as Promise<T>
    const { id: connectionId } = await invoke<{ id: string }>('connections/openDirectory', { path: catalog })
    const untilEnded = async (jobId: string) => {
      for (;;) {
        const job = (await invoke<JobInfo[]>('jobs/list', {})).find((j) => j.id === jobId)
        if (job && job.state !== 'queued' && job.state !== 'running') return job
        await new Promise((resolvePromise) => setTimeout(resolvePromise, 250))
      }
    }
    const rows: (string | number)[][] = []
    const bystander = startBystander()
    const measure = async (label: string, start: () => Promise<JobInfo>) => {
      await app!.mainLoopDelay(true)
      await bystander.read()
      const [elapsed, job] = await time(async () => untilEnded((await start()).id))
      const delay = (await app!.mainLoopDelay(true))!
      const control = await bystander.read()
      if (job.state !== 'done') throw new Error(`${label} ended ${job.state}: ${job.error?.message ?? ''}`)
      rows.push([
        label,
        `${(elapsed / 1000).toFixed(1)} s`,
        ms(delay.p50),
        ms(delay.p99),
        ms(delay.max),
        count(delay.count),
        `${ms(control.p99)} / ${ms(control.max)}`,
        delay.p99 <= DELAY_TARGET_MS ? `ok (≤ ${DELAY_TARGET_MS} ms)` : `**over** (target ≤ ${DELAY_TARGET_MS} ms)`,
      ])
    }
    const ref = { connectionId, namespace: [...BENCH_TABLE.namespace], name: BENCH_TABLE.name }
    await measure(`Summary of ${count(s.rows)} rows × ${s.dim}-d`, () => invoke<JobInfo>('profile/start', { ...ref, view: {} }))
    await measure(`import of a ${count(s.rows)}-row Arrow file (${s.dim}-d vectors; bench/import.ts's)`, () =>
      invoke<JobInfo>('import/start', { connectionId, namespace: [...BENCH_TABLE.namespace], name: 'imported', mode: 'create', source: { path: file } }),
    )
    bystander.stop()
    notes.push(`main's loop on the desktop rig (built main + preload, the real host, the window a Chromium page), sampled every 10 ms from the job's start to its end (the delay: how much later than due a timer ran); load ${loadAverages()}`)
    return [
      {
        title: "Main's event-loop delay (ms) while the catalog host works",
        columns: ['work (in the host)', 'took', 'p50', 'p99', 'max', 'samples', 'an idle process meanwhile: p99 / max', 'verdict (p99)'],
        rows,
      },
    ]
  } finally {
    await app?.dispose()
    await rm(userData, { recursive: true, force: true })
  }
}

/**
 * An idle Node process sampling its own event loop the same way at the same time: what the machine's load alone does
 * to a loop that runs nothing (on a busy 2-core machine a waiting process is not always scheduled at once).
 */
function startBystander() {
  const script = `const h = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 }); h.enable();
    process.stdin.on('data', () => { const late = (ns) => Math.max(0, ns / 1e6 - 10);
      process.stdout.write(JSON.stringify({ p99: late(h.percentile(99)), max: late(h.max) }) + '\\n'); h.reset() })`
  const child = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout })
  return {
    read: () =>
      new Promise<{ p99: number; max: number }>((resolvePromise) => {
        lines.once('line', (line) => resolvePromise(JSON.parse(line) as { p99: number; max: number }))
        child.stdin.write('\n')
      }),
    stop: () => child.kill(),
  }
}

export const section: Section = {
  title: 'The catalog host process: pages through it vs bare @lancedb/lancedb; main’s event loop while it works',
  async run(ctx) {
    if (!existsSync(HOST_BUILT)) throw new Error('out/main/host.js is missing: run `npm run build` first')
    const s = settings()
    const root = await ensureRowsCatalog(ctx, s)
    const notes: string[] = [`load before: ${loadAverages()}`]
    const pages = await pageSection(ctx, s, root, notes)
    const loop = await loopSection(ctx, s, root, notes)
    notes.push(`load after: ${loadAverages()}`)
    return { notes, tables: [...pages, ...loop] }
  },
}
