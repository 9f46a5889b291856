// The namespace tree: its model, its loading and the sidebar that holds it.
export { Sidebar } from './Sidebar'
export { SidebarCollapseButton, SidebarHandle, SidebarRail, useSidebarLayout } from './SidebarFrame'
export { namespaceKey, tableKey, type NamespaceNode, type TreeItemRow } from './treeModel'
export { useNamespaceTree } from './useNamespaceTree'
export { loadListing, refreshTree, useListings } from './queries'
export { TreePane } from './TreePane'
