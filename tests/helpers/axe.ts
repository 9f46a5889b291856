import type { Page } from '@playwright/test'
import axe, { type AxeResults, type RunOptions } from 'axe-core'

/**
 * axe-core's audit run in the page itself, its source injected once per document. `AxeBuilder.analyze()`
 * (@axe-core/playwright) evaluates axe's whole source (~600 KB) into the page on every call, then opens a blank page
 * and evaluates it there again to merge the frames' partial results (`runPartial` + `finishRun`): on this machine that
 * took 2–3× the audit itself, and theme-contrast.spec.ts audits ~70 times. The app has no iframes, so `axe.run` in
 * the main frame audits exactly the nodes AxeBuilder's frame walk does, with the same rules, tags and context.
 *
 * `include`: a CSS selector (as `AxeBuilder.include`); absent, the whole document.
 */
export async function axeAudit(page: Page, options: RunOptions, include?: string): Promise<AxeResults> {
  // A navigation gives a fresh window without axe; the same document keeps the one injected.
  if (!(await page.evaluate('typeof window.axe?.run === "function"'))) await page.evaluate(axe.source)
  // The context AxeBuilder builds (normalizeContext): nothing excluded, the selector or everything included.
  const context = { exclude: [], include: include ? [include] : [] }
  return page.evaluate(
    ({ context, options }) => (globalThis as unknown as { axe: typeof axe }).axe.run(context as axe.ElementContext, options),
    { context, options },
  )
}
