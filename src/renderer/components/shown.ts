import { createContext, useContext } from 'react'

/**
 * Whether the view below is on screen. The workbench keeps every tab's view mounted and hides all but the one or two
 * shown (features/workbench TabPanes); a view reads this to do only on-screen work (a table's check for a newer
 * version) and to wait for the screen (a remembered scroll needs a laid-out grid). Outside any tab: shown.
 */
export const ShownContext = createContext(true)

export function useShown(): boolean {
  return useContext(ShownContext)
}
