/**
 * Which toolbar items move into the **More tools** menu: none while every item fits on the one line; else the
 * items in the order they give up their place (each toolbar says which first, and why), until what stays — and
 * the More tools button — fits. Pure: widths are measured once (OverflowToolbar), this runs on every change of
 * the toolbar's width or of its items.
 */
export interface MeasuredItem {
  id: string
  /** Its width on the bar, in pixels. */
  width: number
}

export function overflowing(items: readonly MeasuredItem[], moveOrder: readonly string[], available: number, gap: number, moreWidth: number): Set<string> {
  const moved = new Set<string>()
  const widthOf = new Map(items.map((item) => [item.id, item.width]))
  // A hair of slack: widths are fractional, and a sum of them must not move an item that fits exactly.
  const fits = (used: number) => used <= available + 0.05
  let used = items.reduce((sum, item, i) => sum + item.width + (i > 0 ? gap : 0), 0)
  if (fits(used)) return moved
  // From here the More tools button takes its place (and a gap) at the end of the line.
  used += gap + moreWidth
  // Items not named in the order move last, trailing ones first.
  const order = [...moveOrder.filter((id) => widthOf.has(id)), ...items.map((item) => item.id).filter((id) => !moveOrder.includes(id)).reverse()]
  for (const id of order) {
    if (fits(used)) break
    moved.add(id)
    used -= widthOf.get(id)! + gap
  }
  return moved
}
