// The workbench: the open tabs (tables, What changed, queries), their keys, the split, and the tabs remembered per catalog.
export { WorkbenchProvider, useWorkbench, type TabActions, type Workbench } from './Workbench'
export { TabStrip } from './TabStrip'
export { TabPanes } from './TabPanes'
export { useTabKeys } from './useTabKeys'
export { useRememberedTabs } from './useRememberedTabs'
export { tabLabel, type Tab, type TabView } from './tabs'
