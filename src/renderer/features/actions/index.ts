// The tree's write actions: the context menu, its dialogs and what each action needs.
export { useTreeActions } from './useTreeActions'
export { TreeActionLayer } from './TreeActionLayer'
export type { TreeActionTarget } from './treeActions'
// Type only: the dialog itself is loaded on first use (a lazy chunk).
export type { WriteAction } from './ActionDialog'
