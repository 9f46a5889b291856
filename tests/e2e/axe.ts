import type { Page } from '@playwright/test'
import { axeAudit } from '../helpers/axe'

/** Every dialog of the app (a Modal is a `dialog` or, for a question or a notice, an `alertdialog`). */
export const DIALOG = '[role="dialog"], [role="alertdialog"]'

/**
 * What axe reports against WCAG 2 A/AA that a user would meet: every contrast failure and every serious or critical
 * rule, over the whole window or only what `within` selects (tests/e2e/theme-contrast.spec.ts, the rig's assistant).
 */
export async function problems(page: Page, within?: string): Promise<string[]> {
  // The whole window once; then only what changed (a dock, a dialog): axe over every grid cell again is slow.
  // axeAudit, not AxeBuilder: the same audit without injecting axe and opening a blank page on every call (the rig
  // closes every page a window opens, as main refuses window.open: axe in the window itself works there too).
  const result = await axeAudit(page, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } }, within)
  return result.violations
    .filter((v) => v.id === 'color-contrast' || v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1).join(' ') ?? ''}`))
}
