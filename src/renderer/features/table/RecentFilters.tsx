import type { RefObject } from 'react'

/**
 * The **Recent filters** list under the filter box: a click or Enter applies one, arrows move between them (Up from
 * the first goes back to the box), Escape closes the list.
 */
export function RecentFilters({ id, recent, filter, input, onPick, onClose }: { id: string; recent: readonly string[]; filter: string; input: RefObject<HTMLInputElement | null>; onPick(filter: string): void; onClose(): void }) {
  return (
    <ul id={id} role="listbox" aria-label="Recent filters" className="recent-filters">
      {recent.map((f) => (
        <li
          key={f}
          role="option"
          aria-selected={f === filter}
          tabIndex={-1}
          onClick={() => onPick(f)}
          onKeyDown={(event) => {
            const items = [...(event.currentTarget.parentElement?.querySelectorAll<HTMLElement>('[role="option"]') ?? [])]
            const at = items.indexOf(event.currentTarget)
            if (event.key === 'Enter') {
              onPick(f)
              input.current?.focus()
            } else if (event.key === 'ArrowDown') items[at + 1]?.focus()
            else if (event.key === 'ArrowUp') (at === 0 ? input.current : items[at - 1])?.focus()
            else if (event.key === 'Escape') {
              onClose()
              input.current?.focus()
            } else return
            event.preventDefault()
          }}
        >
          {f}
        </li>
      ))}
    </ul>
  )
}
