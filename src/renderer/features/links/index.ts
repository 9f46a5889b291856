// Links to a view (#42): Copy link to this view (the table's toolbar and the grid's context menu), and opening a
// lance-catalog:// link (from main, or the harness's fragment) in a new tab.
export { CopyLinkButton, copyViewLink } from './CopyLinkButton'
export { LinkPrompt } from './LinkPrompt'
export type { LinkedView } from './viewLinkOf'
