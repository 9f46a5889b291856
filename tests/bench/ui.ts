/**
 * UI paint timings in Chromium (a section of `npm run bench`): the real renderer served by the
 * harness against the real core, side by side in the same run with a minimal hand-written page
 * (bench/vanilla/page.ts: plain DOM, apache-arrow, the same API, token and Arrow pages). The table is the
 * 1M-row one bench/data.ts generates (BENCH_ROWS; BENCH_UI_DIM, default 128, is its vector's dimension).
 * Measured inside the page, from the action to the frame after the expected rows are in the DOM
 * (requestAnimationFrame, then a task: the frame has been painted):
 * - open: click the table in the tree (vanilla: describe + first page) → first rows painted;
 * - jump to the end: scrollTop set to the maximum in one step (a scrollbar thumb drop) → last rows painted;
 * - the same after a filter (`id % 2 = 1`: Enter in the filter box) and after a sort (id descending: a header click);
 * - first open in a fresh window: a new browser context (no caches), first table click → rows painted.
 * BENCH_UI_REPS rounds (default 15: single rounds swing 2–3× on a loaded machine) after one warm-up round; app and vanilla alternate within each round.
 * Needs `npm run build` (out/renderer) and Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 * BENCH_UI_PROFILE=1 also records a CPU profile and a trace of one cold open, and profiles of the jump to the end, a filter and a sort that follow, into BENCH_DIR (ui-open*).
 */
import { writeFile } from 'node:fs/promises'
import { cpus, loadavg } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'
import { chromium, type Browser, type Locator, type Page } from '@playwright/test'
import { startHarness, type Harness } from '../../src/harness/server'
import { ensureTable, TABLE } from './dir'
import { count, envInt, median, ms, type Report, type Section } from './lib'

const RATIO_TARGET = 1.2
const COLD_TARGET_MS = 100
const FILTER = 'id % 2 = 1'
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

type Action = { kind: 'click' | 'enter'; selector: string } | { kind: 'scroll-end' } | { kind: 'call'; fn: 'open' | 'apply'; arg: unknown }
/** Done when the first cell of the row with this aria-rowindex shows this text. */
interface Done { ariaRow: number; text: string }

/**
 * In the page: do the action, then resolve with the ms until the expected row is in the DOM and the next
 * frame is painted. Kept as source text: tsx would wrap named functions with a helper the page does not have.
 */
const PROBE = `({ action, done }) => new Promise((resolve, reject) => {
  const firstCell = () =>
    document.querySelector('[role="grid"] [role="row"][aria-rowindex="' + done.ariaRow + '"] [role="gridcell"] .cell-text')?.textContent ?? ''
  let start = 0
  let finished = false
  const observer = new MutationObserver(() => { if (firstCell() === done.text) finish() })
  const finish = () => {
    if (finished) return
    finished = true
    observer.disconnect()
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0))
  }
  observer.observe(document.body, { childList: true, subtree: true, characterData: true })
  setTimeout(() => reject(new Error(JSON.stringify(action) + ': row ' + done.ariaRow + ' never showed ' + done.text + ' (shows ' + firstCell() + ')')), 30000)
  const target = action.selector ? document.querySelector(action.selector) : null
  if (action.selector && !target) return reject(new Error('no ' + action.selector))
  start = performance.now()
  if (action.kind === 'click') target.click()
  else if (action.kind === 'enter') target.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', bubbles: true, cancelable: true }))
  else if (action.kind === 'call') window.vanilla[action.fn](action.arg).catch(reject)
  else {
    const grid = document.querySelector('[role="grid"]')
    grid.scrollTop = grid.scrollHeight
  }
  if (firstCell() === done.text) finish()
})`

function timeToPaint(page: Page, action: Action, done: Done): Promise<number> {
  return page.evaluate(`(${PROBE})(${JSON.stringify({ action, done })})`) as Promise<number>
}

const MEASURES = ['open', 'end', 'filter', 'filter-end', 'sort', 'sort-end'] as const
type Measure = (typeof MEASURES)[number]
const LABELS: Record<Measure, string> = {
  open: 'open table → first rows painted',
  end: 'jump to end → last rows painted',
  filter: `filter \`${FILTER}\` → first rows painted`,
  'filter-end': 'filtered: jump to end → last rows painted',
  sort: 'sort id descending → first rows painted',
  'sort-end': 'sorted: jump to end → last rows painted',
}

/** The bundled vanilla page (apache-arrow included), served on the harness's origin by a route. */
async function vanillaScript(): Promise<string> {
  const out = await build({ entryPoints: [join(__dirname, 'vanilla/page.ts')], bundle: true, minify: true, format: 'iife', write: false, logLevel: 'error' })
  return out.outputFiles[0]!.text
}

/** A 1280×800 window on the harness with the bench table's namespaces expanded (the workbench section uses it too). */
export async function openApp(browser: Browser, harness: Harness): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  await page.goto(harness.url)
  for (const name of TABLE.namespace) await page.getByRole('treeitem', { name, exact: true }).click()
  await page.getByRole('treeitem', { name: TABLE.name, exact: true }).waitFor()
  return page
}

const tableItem = `[role="treeitem"][aria-label="${TABLE.name}"]`

/** One round in our app: every measure in a fresh window, the first open counted as cold. */
async function appRound(browser: Browser, harness: Harness, rows: number): Promise<{ cold: number; times: Record<Measure, number> }> {
  const page = await openApp(browser, harness)
  const t = {} as Record<Measure, number>
  const cold = await timeToPaint(page, { kind: 'click', selector: tableItem }, { ariaRow: 2, text: '0' })
  await timeToPaint(page, { kind: 'scroll-end' }, { ariaRow: rows + 1, text: String(rows - 1) })
  // Then as a user meets it in a running app: leave the table, come back.
  await page.getByRole('button', { name: 'Open directory' }).click()
  await page.getByRole('grid').waitFor({ state: 'detached' })
  t.open = await timeToPaint(page, { kind: 'click', selector: tableItem }, { ariaRow: 2, text: '0' })
  t.end = await timeToPaint(page, { kind: 'scroll-end' }, { ariaRow: rows + 1, text: String(rows - 1) })
  const filterBox = page.getByRole('textbox', { name: 'Filter rows' })
  await filterBox.fill(FILTER)
  t.filter = await timeToPaint(page, { kind: 'enter', selector: 'input[aria-label="Filter rows"]' }, { ariaRow: 2, text: '1' })
  const odd = Math.floor(rows / 2)
  t['filter-end'] = await timeToPaint(page, { kind: 'scroll-end' }, { ariaRow: odd + 1, text: String(2 * odd - 1) })
  await clearFilterAndSortAscending(page, filterBox)
  t.sort = await timeToPaint(page, { kind: 'click', selector: '[data-bench-sort]' }, { ariaRow: 2, text: String(rows - 1) })
  t['sort-end'] = await timeToPaint(page, { kind: 'scroll-end' }, { ariaRow: rows + 1, text: '0' })
  await page.close()
  return { cold, times: t }
}

/**
 * Clear the filter, sort by id ascending and mark the id header (`data-bench-sort`), so that the measured click
 * after it is the one that sorts descending.
 */
async function clearFilterAndSortAscending(page: Page, filterBox: Locator): Promise<void> {
  await filterBox.fill('')
  await filterBox.press('Enter')
  const header = page.getByRole('columnheader', { name: 'id', exact: true })
  await header.click()
  await header.and(page.locator('[aria-sort="ascending"]')).waitFor()
  await header.evaluate((el) => el.setAttribute('data-bench-sort', ''))
}

/** The same round in the vanilla page. */
async function vanillaRound(browser: Browser, harness: Harness, script: string, ref: unknown, rows: number): Promise<{ cold: number; times: Record<Measure, number> }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  const origin = new URL(harness.url).origin
  await page.route(`${origin}/bench-vanilla.html`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><meta charset="utf-8"><body style="margin:0">' }))
  await page.goto(`${origin}/bench-vanilla.html${new URL(harness.url).hash}`)
  await page.addScriptTag({ content: script })
  const t = {} as Record<Measure, number>
  const odd = Math.floor(rows / 2)
  // Its first open in this fresh window: cold code, reported next to ours as a reference.
  const cold = await timeToPaint(page, { kind: 'call', fn: 'open', arg: ref }, { ariaRow: 2, text: '0' })
  t.open = await timeToPaint(page, { kind: 'call', fn: 'open', arg: ref }, { ariaRow: 2, text: '0' })
  t.end = await timeToPaint(page, { kind: 'scroll-end' }, { ariaRow: rows + 1, text: String(rows - 1) })
  t.filter = await timeToPaint(page, { kind: 'call', fn: 'apply', arg: { filter: FILTER } }, { ariaRow: 2, text: '1' })
  t['filter-end'] = await timeToPaint(page, { kind: 'scroll-end' }, { ariaRow: odd + 1, text: String(2 * odd - 1) })
  await timeToPaint(page, { kind: 'call', fn: 'apply', arg: { sort: [{ column: 'id', direction: 'asc' }] } }, { ariaRow: 2, text: '0' })
  t.sort = await timeToPaint(page, { kind: 'call', fn: 'apply', arg: { sort: [{ column: 'id', direction: 'desc' }] } }, { ariaRow: 2, text: String(rows - 1) })
  t['sort-end'] = await timeToPaint(page, { kind: 'scroll-end' }, { ariaRow: rows + 1, text: '0' })
  await page.close()
  return { cold, times: t }
}

/** A CPU profile (Chromium's profiler over CDP) of the app's cold and warm opens, for the report. */
async function profileOpen(browser: Browser, harness: Harness, rows: number, path: string): Promise<void> {
  const page = await openApp(browser, harness)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 100 })
  await cdp.send('Profiler.start')
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink'] })
  await timeToPaint(page, { kind: 'click', selector: tableItem }, { ariaRow: 2, text: '0' })
  const trace = await browser.stopTracing()
  const { profile } = await cdp.send('Profiler.stop')
  await writeFile(`${path}.cpuprofile`, JSON.stringify(profile))
  await writeFile(`${path}.trace.json`, trace)
  // And a warm jump to the end, the action furthest from the vanilla page.
  await cdp.send('Profiler.start')
  await timeToPaint(page, { kind: 'scroll-end' }, { ariaRow: rows + 1, text: String(rows - 1) })
  await writeFile(`${path}-end.cpuprofile`, JSON.stringify((await cdp.send('Profiler.stop')).profile))
  // And a filter and a sort in the warm app: what the view change costs after the rows arrive.
  const filterBox = page.getByRole('textbox', { name: 'Filter rows' })
  await filterBox.fill(FILTER)
  await cdp.send('Profiler.start')
  await timeToPaint(page, { kind: 'enter', selector: 'input[aria-label="Filter rows"]' }, { ariaRow: 2, text: '1' })
  await writeFile(`${path}-filter.cpuprofile`, JSON.stringify((await cdp.send('Profiler.stop')).profile))
  await clearFilterAndSortAscending(page, filterBox)
  await cdp.send('Profiler.start')
  await timeToPaint(page, { kind: 'click', selector: '[data-bench-sort]' }, { ariaRow: 2, text: String(rows - 1) })
  await writeFile(`${path}-sort.cpuprofile`, JSON.stringify((await cdp.send('Profiler.stop')).profile))
  await page.close()
}

export const section: Section = {
  title: 'UI: paint timings in Chromium (harness), ours vs a minimal vanilla page',
  async run(ctx): Promise<Report> {
    const rows = envInt('BENCH_ROWS', 1_000_000)
    const dim = envInt('BENCH_UI_DIM', 128)
    const reps = envInt('BENCH_UI_REPS', 15)
    const root = await ensureTable(ctx, { rows, dim })
    const harness = await startHarness({ root })
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
    const script = await vanillaScript()
    const load = loadavg()[0]!
    const cold: number[] = []
    const vanillaCold: number[] = []
    const ours = Object.fromEntries(MEASURES.map((m) => [m, [] as number[]])) as Record<Measure, number[]>
    const vanilla = Object.fromEntries(MEASURES.map((m) => [m, [] as number[]])) as Record<Measure, number[]>
    const ratios = Object.fromEntries(MEASURES.map((m) => [m, [] as number[]])) as Record<Measure, number[]>
    try {
      const origin = new URL(harness.url).origin
      const token = new URL(harness.url).hash
      const listed = await fetch(`${origin}/api/connections/list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-harness-token': new URLSearchParams(token.slice(1)).get('token')! },
        body: '{}',
      })
      const connections = ((await listed.json()) as { value: { id: string }[] }).value
      const ref = { connectionId: connections[0]!.id, namespace: [...TABLE.namespace], name: TABLE.name }
      for (let rep = 0; rep < reps + 1; rep += 1) {
        // Alternate which goes first, so the order favours neither.
        let app: Awaited<ReturnType<typeof appRound>>
        let bare: Awaited<ReturnType<typeof vanillaRound>>
        if (rep % 2 === 0) {
          app = await appRound(browser, harness, rows)
          bare = await vanillaRound(browser, harness, script, ref, rows)
        } else {
          bare = await vanillaRound(browser, harness, script, ref, rows)
          app = await appRound(browser, harness, rows)
        }
        // The first round warms the core's caches and Chromium's; it is not counted.
        if (rep === 0) continue
        cold.push(app.cold)
        vanillaCold.push(bare.cold)
        for (const m of MEASURES) {
          ours[m].push(app.times[m])
          vanilla[m].push(bare.times[m])
          ratios[m].push(app.times[m] / bare.times[m])
        }
        ctx.log(`rep ${rep}: cold ${ms(app.cold)}/${ms(bare.cold)} · ` + MEASURES.map((m) => `${m} ${ms(app.times[m])}/${ms(bare.times[m])}`).join(' · '))
      }
      if (process.env.BENCH_UI_PROFILE === '1') {
        await profileOpen(browser, harness, rows, join(ctx.dir, 'ui-open'))
        ctx.log(`CPU profile and trace of a cold open written to ${join(ctx.dir, 'ui-open')}.{cpuprofile,trace.json}`)
      }
    } finally {
      await browser.close()
      await harness.close()
    }
    const spread = (values: number[]) => `${ms(Math.min(...values))}–${ms(Math.max(...values))}`
    const rowsOut = MEASURES.map((m) => {
      const r = median(ratios[m])
      const ofMedians = median(ours[m]) / median(vanilla[m])
      return [LABELS[m], ms(median(ours[m])), spread(ours[m]), ms(median(vanilla[m])), spread(vanilla[m]), `${r.toFixed(2)}× (${Math.min(...ratios[m]).toFixed(2)}–${Math.max(...ratios[m]).toFixed(2)})`, `${ofMedians.toFixed(2)}×`, r <= RATIO_TARGET ? `ok (≤ ${RATIO_TARGET}×)` : `**over** (≤ ${RATIO_TARGET}×)`]
    })
    const c = median(cold)
    return {
      notes: [
        `table: ${count(rows)} rows × (int64, utf8, float64, ${dim}-d float32 vector); pages of 100 rows; ${reps} rounds after one warm-up round, app and vanilla alternating first`,
        'measured in the page from the action to the frame after the expected rows are in the DOM (rAF + task); ratio = median of per-round ours/vanilla',
        'vanilla: bench/vanilla/page.ts — plain DOM, apache-arrow, same harness API and token; open = describe then page; filter/sort = count and first page at once',
        `machine load average at start: ${load.toFixed(1)} on ${cpus().length} cores (other work on the machine inflates these times)`,
      ],
      tables: [
        {
          title: 'Time to rows painted (ms), ours vs vanilla',
          columns: ['action', 'ours (median)', 'ours (min–max)', 'vanilla (median)', 'vanilla (min–max)', 'ratio: median of rounds (min–max)', 'ratio of medians', 'verdict (median of rounds)'],
          rows: rowsOut,
        },
        {
          title: 'First open in a fresh window (new browser context: first table click → rows painted), ms',
          columns: ['median', 'min–max', 'vanilla page, its first open in a fresh window (median, min–max)', 'target', 'verdict'],
          rows: [[ms(c), spread(cold), `${ms(median(vanillaCold))} (${spread(vanillaCold)})`, `≤ ${COLD_TARGET_MS}`, c <= COLD_TARGET_MS ? 'ok' : '**over**']],
        },
      ],
    }
  },
}
