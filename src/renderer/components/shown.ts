import { createContext, useContext, useState } from 'react'

/**
 * Whether the view below is on screen. The workbench keeps every tab's view mounted and hides all but the one or two
 * shown (features/workbench TabPanes); a view reads this to do only on-screen work (a table's check for a newer
 * version) and to wait for the screen (a remembered scroll needs a laid-out grid). Outside any tab: shown.
 */
export const ShownContext = createContext(true)

export function useShown(): boolean {
  return useContext(ShownContext)
}

/**
 * Whether the view below has been on screen at least once. A tab restored hidden (a restart brings back five tabs,
 * one shown) waits with its costly parts — a Summary's profile, a Map — until the user first shows it; from then on
 * they stay mounted when it is hidden again, so switching back to it is instant.
 */
export function useShownOnce(): boolean {
  const shown = useShown()
  const [once, setOnce] = useState(shown)
  // Set while rendering: the render that first shows the view mounts its parts (no frame shows them missing).
  if (shown && !once) setOnce(true)
  return shown || once
}
