// What the user is looking at: the selection, the start screen and the expanded namespaces.
export { NavigationProvider, useNavigation, type Navigation, type Selection } from './Navigation'
export type { TreeWrite } from './selection'
