/**
 * UI paint timings in Chromium (a section of `npm run bench`): the real renderer served by the harness
 * against the real core, on the 1M-row table that bench/dir.ts generates in BENCH_DIR (same knobs:
 * BENCH_ROWS, BENCH_DIM). Measured inside the page, from the user's action to the frame after the rows
 * are in the DOM (requestAnimationFrame, then a task: the frame has been painted):
 * - clicking a table in the tree → its first rows painted;
 * - dragging the scrollbar to the end (scrollTop set to the maximum in one step, what a thumb
 *   drop does) → the last rows painted.
 * Target < 100 ms each (median of BENCH_UI_REPS runs, default 9, each on a fresh page).
 * Needs `npm run build` (out/renderer) and Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import { cpus, loadavg } from 'node:os'
import { chromium, type Page } from '@playwright/test'
import { startHarness } from '../../src/harness/server'
import { ensureTable, settings, TABLE } from './dir'
import { count, envInt, median, ms, type Report, type Section } from './lib'

const TARGET_MS = 100
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/**
 * In the page: do the action, then resolve with the ms until the rows are in the DOM and the next frame
 * is painted. Kept as source text: tsx would wrap named functions with a helper the page does not have.
 */
const IN_PAGE = `({ action, tableName, lastAriaRow }) => new Promise((resolve, reject) => {
  const cellText = (ariaRow) =>
    document.querySelector('[role="grid"] [role="row"][aria-rowindex="' + ariaRow + '"] [role="gridcell"] .cell-text')?.textContent ?? ''
  const done = action === 'open-table' ? () => cellText(2) !== '' : () => cellText(lastAriaRow) !== ''
  let start = 0
  let finished = false
  const observer = new MutationObserver(() => { if (done()) finish() })
  const finish = () => {
    if (finished) return
    finished = true
    observer.disconnect()
    requestAnimationFrame(() => setTimeout(() => {
      const calls = performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/tables/') && e.startTime >= start)
      const answered = calls.length > 0 ? Math.max(...calls.map((e) => e.responseEnd)) - start : 0
      resolve({ total: performance.now() - start, answered })
    }, 0))
  }
  observer.observe(document.body, { childList: true, subtree: true, characterData: true })
  setTimeout(() => reject(new Error(action + ': rows not painted within 30 s')), 30000)
  start = performance.now()
  if (action === 'open-table') {
    const item = document.querySelector('[role="treeitem"][aria-label="' + tableName + '"]')
    if (!item) return reject(new Error('no tree item ' + tableName))
    item.click()
  } else {
    const grid = document.querySelector('[role="grid"]')
    if (!grid) return reject(new Error('no grid'))
    grid.scrollTop = grid.scrollHeight
  }
  if (done()) finish()
})`

interface Timing {
  /** Action → rows painted. */
  total: number
  /** Action → the last API answer (tables/describe, tables/page) received. */
  answered: number
}

function timeToPaint(page: Page, action: 'open-table' | 'scroll-end', tableName: string, lastAriaRow: number): Promise<Timing> {
  return page.evaluate(`(${IN_PAGE})(${JSON.stringify({ action, tableName, lastAriaRow })})`) as Promise<Timing>
}

export const section: Section = {
  title: 'UI: paint timings in Chromium (harness)',
  async run(ctx): Promise<Report> {
    const s = settings()
    const reps = envInt('BENCH_UI_REPS', 9)
    const root = await ensureTable(ctx, s)
    const harness = await startHarness({ root })
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
    const coldOpen: Timing[] = []
    const open: Timing[] = []
    const end: Timing[] = []
    const load = loadavg()[0]!
    try {
      for (let rep = 0; rep < reps + 1; rep += 1) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
        await page.goto(harness.url)
        for (const name of TABLE.namespace) {
          await page.getByRole('treeitem', { name, exact: true }).click()
        }
        await page.getByRole('treeitem', { name: TABLE.name, exact: true }).waitFor()
        // First open in a fresh page: every code path is cold (parse, compile). Reported apart.
        const cold = await timeToPaint(page, 'open-table', TABLE.name, s.rows + 1)
        await timeToPaint(page, 'scroll-end', TABLE.name, s.rows + 1)
        // Then as a user meets it in a running app: leave the table, come back.
        await page.getByRole('button', { name: 'Open directory' }).click()
        await page.getByRole('grid').waitFor({ state: 'detached' })
        const opened = await timeToPaint(page, 'open-table', TABLE.name, s.rows + 1)
        const scrolled = await timeToPaint(page, 'scroll-end', TABLE.name, s.rows + 1)
        const lastId = await page.locator(`[role="row"][aria-rowindex="${s.rows + 1}"] [role="gridcell"]`).first().textContent()
        if (lastId !== String(s.rows - 1)) throw new Error(`last row shows id ${lastId}, expected ${s.rows - 1}`)
        await page.close()
        // The first round warms the core's caches and Chromium's code caches; it is not counted.
        if (rep === 0) continue
        coldOpen.push(cold)
        open.push(opened)
        end.push(scrolled)
        ctx.log(`rep ${rep}: cold open ${ms(cold.total)} ms, open ${ms(opened.total)} ms (answers ${ms(opened.answered)}), end ${ms(scrolled.total)} ms (answers ${ms(scrolled.answered)})`)
      }
    } finally {
      await browser.close()
      await harness.close()
    }
    const row = (what: string, timings: Timing[]) => {
      const values = timings.map((t) => t.total)
      const m = median(values)
      const answered = median(timings.map((t) => t.answered))
      return [what, ms(m), ms(answered), ms(Math.min(...values)), ms(Math.max(...values)), `< ${TARGET_MS}`, m < TARGET_MS ? 'ok' : '**over**']
    }
    return {
      notes: [
        `table: ${count(s.rows)} rows × (int64, utf8, float64, ${s.dim}-d float32 vector); pages of 200 rows; ${reps} runs on fresh pages after one warm-up`,
        'measured in the page from the action to the frame after the rows are in the DOM (rAF + task); "answers" = until the last API response arrived',
        `machine load average at start: ${load.toFixed(1)} on ${cpus().length} cores (other work on the machine inflates these times)`,
      ],
      tables: [
        {
          title: 'Time to rows painted (ms)',
          columns: ['action', 'median', 'answers (median)', 'min', 'max', 'target', 'verdict'],
          rows: [
            row('click table → first rows painted', open),
            row('drag scrollbar to end → last rows painted', end),
            row('(first open in a fresh page: cold code)', coldOpen),
          ],
        },
      ],
    }
  },
}
