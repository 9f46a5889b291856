/**
 * The workbench (#38 "Speed", a section of `npm run bench`): the real renderer served by the harness against the
 * real core, in headless Chromium, on the 1M-row table bench/data.ts generates (BENCH_ROWS; BENCH_UI_DIM, default
 * 128, is its vector's dimension — the same table as the `ui` section).
 * - tabs: BENCH_WB_TABS (10) tabs of the table, opened from the tree with Ctrl+click; each is scrolled through
 *   BENCH_WB_FILL (45) places 100 rows apart (its page cache filled: 40 pages of 100 rows are kept) and left at its own
 *   place. After each tab: the renderer's JS heap after a forced GC (CDP `Runtime.getHeapUsage`,
 *   `Performance.getMetrics`) and the renderer process's RSS (its pid from CDP `SystemInfo.getProcessInfo`,
 *   /proc/<pid>/status).
 * - switching: BENCH_WB_SWITCHES (30) switches among those tabs, alternately a click on a tab and Ctrl+Tab; measured in
 *   the page from the click/key to the frame after the tab's rows are shown (its grid laid out, the rows in view
 *   loaded; requestAnimationFrame, then a task: the frame has been painted), as bench/ui.ts measures.
 * - dock resize: a fresh window, one tab, Summary and Map open in the right dock (each computed over the 1M rows
 *   first); the **Resize dock** separator dragged to and fro by BENCH_WB_MOVES (120) mouse moves of 4 px sent as a
 *   mouse sends them (CDP input every half frame), once with the Map shown and once with the Summary shown. Recorded
 *   in the page: each frame's interval (requestAnimationFrame deltas), the work of each frame that handled a move
 *   (its start to a task queued in its rAF, which runs after its style, layout and paint), long tasks; and the main
 *   thread's CPU over the drag from a trace.
 * Wall times grow with the machine's load (its load average is in the notes); the traced main-thread CPU hardly does.
 * BENCH_WB_PARTS (`tabs,dock`) runs one part; BENCH_WB_PROFILE=1 writes a CPU profile and a trace of six switches
 * into BENCH_DIR (workbench-switch.*).
 * Needs `npm run build` (out/renderer) and Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import { readFile, writeFile } from 'node:fs/promises'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test'
import { startHarness, type Harness } from '../../src/harness/server'
import { ensureTable, TABLE } from './dir'
import { count, envInt, median, ms, type Report, type ResultTable, type Section } from './lib'
import { CHROMIUM_ARGS, openApp } from './ui'

const SWITCH_TARGET_MS = 50
const MEMORY_TARGET_MB = 500
const FRAME_TARGET_MS = 16
const FILL_STEP_ROWS = 100
const MB = 2 ** 20
/** One 60 Hz frame: headless Chromium's frames come every 16.7 ms, so a frame on time shows as an interval of 16.7. */
const FRAME_MS = 1000 / 60

/**
 * In the page: the rows the shown grid has in view (`panel`: a tabpanel's id, else the visible one). Null while no grid
 * is laid out. A row counts as loaded when its first cell shows its id (the table's ids are its row numbers).
 */
const SHOWN = `(panelId) => {
  const panel = panelId ? document.getElementById(panelId) : [...document.querySelectorAll('[role="tabpanel"]')].find((p) => !p.hidden)
  if (!panel || panel.hidden) return null
  const grid = panel.querySelector('[role="grid"]')
  if (!grid || grid.clientHeight === 0) return null
  const box = grid.getBoundingClientRect()
  const header = grid.querySelector('[role="row"][aria-rowindex="1"]')
  const top = header ? header.getBoundingClientRect().bottom : box.top
  let first = null
  let loaded = 0
  let pending = 0
  for (const row of grid.querySelectorAll('[role="row"]')) {
    const index = Number(row.getAttribute('aria-rowindex'))
    if (index < 2) continue
    const r = row.getBoundingClientRect()
    if (r.bottom <= top + 1 || r.top >= box.bottom - 1) continue
    const text = row.querySelector('[role="gridcell"] .cell-text')?.textContent ?? ''
    if (text === String(index - 2)) loaded += 1
    else pending += 1
    if (first === null || index < first) first = index - 2
  }
  return { first, loaded, pending }
}`

type Action = { kind: 'click'; id: string } | { kind: 'ctrl-tab' } | { kind: 'scroll'; by: number } | { kind: 'none' }

/**
 * In the page: do the action, then resolve with the ms until the grid of `panelId` (else the visible one) shows loaded
 * rows only — at row `first` when given — and the next frame is painted, and with the first row it shows. Kept as
 * source text: tsx would wrap named functions with a helper the page does not have.
 */
const PROBE = `({ action, panelId, first }) => new Promise((resolve, reject) => {
  const shown = ${SHOWN}
  let start = 0
  let finished = false
  // A scroll is done when other rows show (until its scroll event is handled, the rows before it still do).
  const before = action.kind === 'scroll' ? shown(panelId)?.first : undefined
  const ready = () => {
    const s = shown(panelId)
    return s !== null && s.first !== null && s.pending === 0 && s.loaded > 0 && (first === null || s.first === first) && s.first !== before ? s : null
  }
  const finish = (s) => {
    if (finished) return
    finished = true
    observer.disconnect()
    requestAnimationFrame(() => setTimeout(() => resolve({ ms: performance.now() - start, first: s.first }), 0))
  }
  const check = () => { const s = ready(); if (s) finish(s) }
  const observer = new MutationObserver(check)
  observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['hidden', 'style'] })
  // A grid that only moves (no DOM change) is checked each frame too.
  const poll = () => { if (!finished) { check(); requestAnimationFrame(poll) } }
  setTimeout(() => { if (!finished) reject(new Error(JSON.stringify(action) + ': the rows never showed: ' + JSON.stringify(shown(panelId)))) }, 30000)
  start = performance.now()
  if (action.kind === 'click') document.getElementById(action.id).click()
  else if (action.kind === 'ctrl-tab') window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', code: 'Tab', ctrlKey: true, bubbles: true, cancelable: true }))
  else if (action.kind === 'scroll') {
    const panel = panelId ? document.getElementById(panelId) : [...document.querySelectorAll('[role="tabpanel"]')].find((p) => !p.hidden)
    panel.querySelector('[role="grid"]').scrollTop += action.by
  }
  check()
  requestAnimationFrame(poll)
})`

interface Probed { ms: number; first: number }

function probe(page: Page, action: Action, panelId: string | null, first: number | null = null): Promise<Probed> {
  return page.evaluate(`(${PROBE})(${JSON.stringify({ action, panelId, first })})`) as Promise<Probed>
}

interface TraceEvent { name: string; ph: string; pid: number; tid: number; tdur?: number; args?: { name?: string } }

/**
 * The renderer main thread's CPU time (ms) while `work` runs: the thread time (`tdur`) of its top-level tasks in a
 * Chromium trace. Unlike wall time, it hardly grows when other processes take the cores.
 */
async function mainThreadCpu(browser: Browser, page: Page, work: () => Promise<void>): Promise<number> {
  await browser.startTracing(page, { categories: ['toplevel'] })
  await work()
  const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }
  const mains = traceEvents.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  let best = 0
  for (const main of mains) {
    const tasks = traceEvents.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && e.pid === main.pid && e.tid === main.tid)
    best = Math.max(best, tasks.reduce((sum, e) => sum + (e.tdur ?? 0), 0) / 1000)
  }
  return best
}

interface Memory { heapUsedMB: number; heapTotalMB: number; nodes: number; rssMB: number | null; anonMB: number | null; renderers: number }

/** The renderer's JS heap after a forced GC, its DOM nodes, and the biggest renderer process's RSS (resident) and RssAnon. */
async function memory(cdp: CDPSession, browserCdp: CDPSession): Promise<Memory> {
  await cdp.send('HeapProfiler.collectGarbage')
  const heap = await cdp.send('Runtime.getHeapUsage')
  const { metrics } = await cdp.send('Performance.getMetrics')
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN
  let rssMB: number | null = null
  let anonMB: number | null = null
  let renderers = 0
  try {
    const info = (await browserCdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] }
    for (const p of info.processInfo.filter((p) => p.type === 'renderer')) {
      renderers += 1
      const status = await readFile(`/proc/${p.id}/status`, 'utf8')
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? Number.NaN)
      if (rssMB === null || kb('VmRSS') / 1024 > rssMB) {
        rssMB = kb('VmRSS') / 1024
        anonMB = kb('RssAnon') / 1024
      }
    }
  } catch {
    // No process info (another OS, an older Chromium): the heap figures stand alone.
  }
  return { heapUsedMB: heap.usedSize / MB, heapTotalMB: heap.totalSize / MB, nodes: metric('Nodes'), rssMB, anonMB, renderers }
}

interface TabsResult {
  memory: Memory[]
  baseline: Memory
  switches: { kind: 'click' | 'ctrl-tab'; ms: number; kept: boolean }[]
  /** Main-thread CPU per switch (ms), from a trace of further switches. */
  cpuPerSwitch: number
}

/** Open `tabs` tabs of the table, each filled and left at its own place; then switch among them. */
async function tabsRound(browser: Browser, harness: Harness, rows: number, tabs: number, fill: number, switches: number, log: (m: string) => void, profilePath: string | null): Promise<TabsResult> {
  const page = await openApp(browser, harness)
  const cdp = await page.context().newCDPSession(page)
  const browserCdp = await browser.newBrowserCDPSession()
  await cdp.send('Performance.enable')
  await cdp.send('HeapProfiler.enable')
  const baseline = await memory(cdp, browserCdp)
  const item = page.getByRole('treeitem', { name: TABLE.name, exact: true })
  const strip = page.getByRole('tablist', { name: 'Open tables' })
  const places: { tabId: string; panelId: string; first: number }[] = []
  const mem: Memory[] = []
  for (let k = 0; k < tabs; k += 1) {
    await item.click(k === 0 ? {} : { modifiers: ['Control'] })
    await strip.getByRole('tab').nth(k).waitFor()
    const selected = strip.locator('[role="tab"][aria-selected="true"]')
    const tabId = (await selected.getAttribute('id'))!
    const panelId = (await selected.getAttribute('aria-controls')) ?? `tabpanel-${tabId.replace(/^tab-/, '')}`
    await probe(page, { kind: 'none' }, panelId, 0)
    // To its own place (a tenth of the table further per tab), then through `fill` places 100 rows apart.
    const grid = page.locator(`#${panelId} [role="grid"]`)
    const max = await grid.evaluate((g) => g.scrollHeight - g.clientHeight)
    const by = Math.round((max * k) / tabs)
    let at = by > 0 ? await probe(page, { kind: 'scroll', by }, panelId) : await probe(page, { kind: 'none' }, panelId)
    // The scroll height is scaled down past the browser's limit: the pixels of 100 rows, measured.
    const pxPerRow = by > 0 && at.first > 0 ? by / at.first : max / rows
    for (let s = 1; s < fill; s += 1) at = await probe(page, { kind: 'scroll', by: Math.max(1, Math.round(FILL_STEP_ROWS * pxPerRow)) }, panelId)
    places.push({ tabId, panelId, first: at.first })
    mem.push(await memory(cdp, browserCdp))
    log(`tab ${k + 1}: at row ${count(at.first)} · heap ${mem.at(-1)!.heapUsedMB.toFixed(1)} MB · RSS ${mem.at(-1)!.rssMB?.toFixed(0) ?? '?'} MB`)
  }
  const done: TabsResult['switches'] = []
  // The active tab is the last opened; alternate a click on another tab with Ctrl+Tab (the next one).
  let active = tabs - 1
  for (let s = 0; s < switches; s += 1) {
    const click = s % 2 === 0
    const to = click ? (active + 1 + ((s * 7) % (tabs - 1))) % tabs : (active + 1) % tabs
    const place = places[to]!
    const result = await probe(page, click ? { kind: 'click', id: place.tabId } : { kind: 'ctrl-tab' }, place.panelId)
    done.push({ kind: click ? 'click' : 'ctrl-tab', ms: result.ms, kept: result.first === place.first })
    if (result.first !== place.first) log(`switch ${s + 1} to tab ${to + 1}: shows row ${count(result.first)}, was left at ${count(place.first)}`)
    active = to
  }
  // The same switches again under a trace: the main thread's CPU per switch.
  const traced = Math.min(switches, 10)
  const cpu = await mainThreadCpu(browser, page, async () => {
    for (let s = 0; s < traced; s += 1) {
      active = (active + 1) % tabs
      await probe(page, { kind: 'click', id: places[active]!.tabId }, places[active]!.panelId)
    }
  })
  const cpuPerSwitch = cpu / traced
  if (profilePath) {
    // A CPU profile of a few more switches (BENCH_WB_PROFILE=1), for the report.
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
    await cdp.send('Profiler.start')
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'v8.execute'] })
    for (let s = 0; s < 6; s += 1) {
      active = (active + 1) % tabs
      await probe(page, { kind: 'click', id: places[active]!.tabId }, places[active]!.panelId)
    }
    await writeFile(`${profilePath}.trace.json`, await browser.stopTracing())
    await writeFile(`${profilePath}.cpuprofile`, JSON.stringify((await cdp.send('Profiler.stop')).profile))
  }
  await page.close()
  return { memory: mem, baseline, switches: done, cpuPerSwitch }
}

/**
 * In the page: from now until `stop()`, each frame's interval (rAF deltas), each frame's main-thread time (rAF timestamp →
 * a task queued in the rAF callback, which runs once the frame's style, layout and paint are done), pointermoves, long tasks.
 */
const RECORDER = `() => {
  const frames = []
  const long = []
  let moves = 0
  let seen = 0
  let on = true
  let last = null
  const onMove = () => { moves += 1 }
  window.addEventListener('pointermove', onMove, true)
  const observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) long.push(e.duration) })
  try { observer.observe({ type: 'longtask' }) } catch {}
  const tick = (t) => {
    if (!on) return
    // rAF-aligned input: this frame's pointermoves were dispatched before its rAF callbacks.
    const frame = { interval: last === null ? null : t - last, moved: moves > seen, work: null }
    seen = moves
    last = t
    frames.push(frame)
    setTimeout(() => { frame.work = performance.now() - t }, 0)
    requestAnimationFrame(tick)
  }
  requestAnimationFrame(tick)
  window.__wbStop = () => {
    on = false
    observer.disconnect()
    window.removeEventListener('pointermove', onMove, true)
    return { frames, long, moves }
  }
}`

interface Drag { frames: { interval: number | null; moved: boolean; work: number | null }[]; long: number[]; moves: number; cpu: number }

/** Pixels a drag step moves the separator. */
const STEP_PX = 4

/**
 * Drag the right dock's separator to and fro for `moves` mouse moves of {@link STEP_PX} px (within the room the grid's
 * and the dock's minimum widths leave), recording the frames. The moves are CDP mouse events sent every half frame
 * without waiting for each, as a real mouse sends them: Chromium hands the page one (coalesced) pointermove a frame.
 */
async function dragDock(page: Page, moves: number): Promise<Drag> {
  const separator = page.getByRole('separator', { name: 'Resize dock' })
  const box = (await separator.boundingBox())!
  const main = (await page.locator('.dock-main').boundingBox())!
  const dock = (await page.locator('[data-dock="right"]').boundingBox())!
  const amplitude = Math.max(STEP_PX, Math.floor((0.8 * Math.min(main.width - 480, dock.width - 280)) / STEP_PX) * STEP_PX)
  const y = box.y + box.height / 2
  const x0 = box.x + box.width / 2
  const cdp = await page.context().newCDPSession(page)
  const mouse = (type: 'mouseMoved' | 'mousePressed' | 'mouseReleased', x: number) =>
    cdp.send('Input.dispatchMouseEvent', { type, x, y, button: 'left', buttons: type === 'mouseReleased' ? 0 : 1, clickCount: type === 'mouseMoved' ? 0 : 1 })
  await cdp.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: x0, y, button: 'none', buttons: 0 })
  await mouse('mousePressed', x0)
  await page.evaluate(`(${RECORDER})()`)
  let x = x0
  let direction = -1
  const cpu = await mainThreadCpu(page.context().browser()!, page, async () => {
    const sent: Promise<unknown>[] = []
    for (let s = 0; s < moves; s += 1) {
      if (Math.abs(x + direction * STEP_PX - x0) > amplitude) direction = -direction
      x += direction * STEP_PX
      sent.push(mouse('mouseMoved', x))
      await new Promise((resolve) => setTimeout(resolve, FRAME_MS / 2))
    }
    await Promise.all(sent)
    // Until the main thread is idle after the last move (a redraw it set off is counted).
    await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestIdleCallback(() => r(), { timeout: 2000 })))')
  })
  await mouse('mouseReleased', x)
  await cdp.detach()
  return { ...((await page.evaluate('window.__wbStop()')) as Omit<Drag, 'cpu'>), cpu }
}

interface DockResult { map: Drag; summary: Drag; drawer: string | null }

async function dockRound(browser: Browser, harness: Harness, steps: number, log: (m: string) => void): Promise<DockResult> {
  const page = await openApp(browser, harness)
  await page.getByRole('treeitem', { name: TABLE.name, exact: true }).click()
  await probe(page, { kind: 'none' }, null, 0)
  await page.getByRole('button', { name: 'Summary', exact: true }).click()
  log('dock: waiting for the Summary of the whole table…')
  await page.getByRole('region', { name: 'Summary' }).getByRole('group', { name: /^Histogram of score/ }).waitFor({ timeout: 600_000 })
  await page.getByRole('button', { name: 'Map', exact: true }).click()
  log('dock: waiting for the Map of the whole table…')
  const points = page.locator('[data-testid="map-points"][data-drawer]')
  await points.waitFor({ timeout: 600_000 })
  const drawer = await points.getAttribute('data-drawer')
  const dockTabs = page.getByRole('tablist', { name: 'Right dock' })
  await dockTabs.getByRole('tab', { name: 'Map' }).click()
  await page.getByRole('region', { name: 'Embedding map' }).waitFor()
  const map = await dragDock(page, steps)
  await dockTabs.getByRole('tab', { name: 'Summary' }).click()
  await page.getByRole('region', { name: 'Summary' }).waitFor()
  const summary = await dragDock(page, steps)
  await page.close()
  return { map, summary, drawer }
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))] ?? Number.NaN
const mb = (value: number | null) => (value === null ? '—' : value.toFixed(0))

function dragRow(label: string, drag: Drag): (string | number)[] {
  // The frames from the first that handled a move to the one after the last: the drag as the user sees it.
  const first = drag.frames.findIndex((f) => f.moved)
  const last = drag.frames.findLastIndex((f) => f.moved)
  const during = drag.frames.slice(first + 1, last + 2).flatMap((f) => (f.interval === null ? [] : [f.interval]))
  const work = drag.frames.flatMap((f) => (f.moved && f.work !== null ? [f.work] : []))
  const late = during.filter((f) => f > FRAME_MS + 3).length
  const handled = drag.frames.filter((f) => f.moved).length
  const frame = median(during)
  return [
    label,
    `${drag.moves} in ${handled} frames`,
    `${ms(frame)} (${ms(p95(during))})`,
    `${late} of ${during.length} (${((100 * late) / Math.max(1, during.length)).toFixed(0)}%)`,
    `${ms(median(work))} (${ms(p95(work))})`,
    ms(drag.cpu / Math.max(1, handled)),
    drag.long.length === 0 ? '0' : `${drag.long.length} (max ${ms(Math.max(...drag.long))})`,
    frame <= FRAME_MS + 0.5 ? 'ok (on time at 60 Hz)' : `**over** (≤ ${FRAME_TARGET_MS})`,
  ]
}

function tabTables(t: TabsResult, tabs: number): ResultTable[] {
  const sw = t.switches.map((s) => s.ms)
  const kept = t.switches.filter((s) => s.kept).length
  const row = (how: string, values: number[], last: boolean): (string | number)[] => [
    how,
    values.length,
    ms(median(values)),
    ms(p95(values)),
    `${ms(Math.min(...values))}–${ms(Math.max(...values))}`,
    last ? `${kept} of ${sw.length}` : '',
    last ? `≤ ${SWITCH_TARGET_MS}` : '',
    last ? (median(sw) <= SWITCH_TARGET_MS ? 'ok' : '**over**') : '',
    last ? ms(t.cpuPerSwitch) : '',
  ]
  const byKind = (kind: 'click' | 'ctrl-tab') => t.switches.filter((s) => s.kind === kind).map((s) => s.ms)
  const last = t.memory.at(-1)!
  const lastMB = last.rssMB ?? last.heapTotalMB
  const memRow = (label: string | number, m: Memory, final: boolean): (string | number)[] => [
    label,
    m.heapUsedMB.toFixed(1),
    m.heapTotalMB.toFixed(1),
    m.nodes,
    mb(m.rssMB),
    mb(m.anonMB),
    final ? `< ${MEMORY_TARGET_MB}` : '',
    final ? (lastMB < MEMORY_TARGET_MB ? 'ok' : '**over**') : '',
  ]
  return [
    {
      title: `Switching to a tab opened before (${tabs} tabs open), ms`,
      columns: ['how', 'switches', 'median', 'p95', 'min–max', 'tab back at the row it was left at', 'target', 'verdict (median)', 'main-thread CPU per switch (traced)'],
      rows: [row('click on the tab', byKind('click'), false), row('Ctrl+Tab', byKind('ctrl-tab'), false), row('all', sw, true)],
    },
    {
      title: 'Renderer memory as tabs open (after a forced GC), MB',
      columns: ['tabs open', 'JS heap used', 'JS heap total', 'DOM nodes', 'renderer RSS', 'of it anonymous (RssAnon)', 'target (RSS)', 'verdict'],
      rows: [memRow('0 (tree only)', t.baseline, false), ...t.memory.map((m, i) => memRow(i + 1, m, i === t.memory.length - 1))],
    },
  ]
}

export const section: Section = {
  title: 'Workbench: tab switching, memory of 10 tabs, dock resize frames (Chromium, harness)',
  async run(ctx): Promise<Report> {
    const rows = envInt('BENCH_ROWS', 1_000_000)
    const dim = envInt('BENCH_UI_DIM', 128)
    const tabs = envInt('BENCH_WB_TABS', 10)
    const fill = envInt('BENCH_WB_FILL', 45)
    const switches = envInt('BENCH_WB_SWITCHES', 30)
    const steps = envInt('BENCH_WB_MOVES', 120)
    const parts = (process.env.BENCH_WB_PARTS ?? 'tabs,dock').split(',')
    const root = await ensureTable(ctx, { rows, dim })
    // Each round gets its own harness: a harness remembers a catalog's tabs, and the dock round starts from none.
    let harness = await startHarness({ root })
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
    const loadBefore = loadavg()
    let t: TabsResult | undefined
    let d: DockResult | undefined
    try {
      if (parts.includes('tabs')) t = await tabsRound(browser, harness, rows, tabs, fill, switches, ctx.log, process.env.BENCH_WB_PROFILE === '1' ? join(ctx.dir, 'workbench-switch') : null)
      if (parts.includes('dock')) {
        await harness.close()
        harness = await startHarness({ root })
        d = await dockRound(browser, harness, steps, ctx.log)
      }
    } finally {
      await browser.close()
      await harness.close()
    }
    const loadAfter = loadavg()
    const load = (l: number[]) => l.map((v) => v.toFixed(1)).join(' / ')
    return {
      notes: [
        `table: ${count(rows)} rows × (int64, utf8, float64, ${dim}-d float32 vector); viewport 1280×800; pages of 100 rows`,
        `machine load average ${load(loadBefore)} at the start, ${load(loadAfter)} at the end, on ${cpus().length} cores shared with other work (it inflates these times)`,
        ...(t
          ? [
              `tabs: ${tabs} tabs of the same table (the tree's Ctrl+click), each scrolled through ${fill} places ${FILL_STEP_ROWS} rows apart from its own start (tab k at k/${tabs} of the table), so each holds its full page cache`,
              'switch: from the click on a tab (or the Ctrl+Tab keydown) to the frame after the tab’s grid shows its rows in view, all loaded (rAF + task)',
            ]
          : []),
        ...(d
          ? [
              `dock: the Resize dock separator dragged to and fro by ${steps} mouse moves of ${STEP_PX} px (CDP mouse events every 8 ms, not awaited one by one; Chromium coalesces them to one pointermove a frame, as a real mouse drag), within the room the grid’s 480 px and the dock’s 280 px minimum leave; frame interval = requestAnimationFrame deltas from the first frame with a move to the one after the last (16.7 ms when on time at 60 Hz); work of a frame = its start (rAF timestamp) to a task queued in its rAF callback (after its style, layout and paint); CPU = the renderer main thread’s thread time over the drag (trace) ÷ frames with a move`,
              `map drawer in this Chromium: \`${d.drawer}\` (software GL: \`image\` is the density image binned on the CPU each draw; drawer.ts)`,
            ]
          : []),
      ],
      tables: [
        ...(t ? tabTables(t, tabs) : []),
        ...(d
          ? [
              {
                title: 'Dragging the Resize dock separator with Summary and Map open (right dock), ms',
                columns: ['dock shows', 'pointermoves the page got', 'frame interval during the drag: median (p95)', 'late frames (> 19.7 ms)', 'work of a frame with a move: median (p95)', 'main-thread CPU per frame with a move (traced, mean)', 'long tasks (> 50 ms)', 'verdict (median frame ≤ 16 ms: on time at 60 Hz)'],
                rows: [dragRow('Map (1M points)', d.map), dragRow('Summary', d.summary)],
              },
            ]
          : []),
      ],
    }
  },
}
