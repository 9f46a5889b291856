import { writeOptions } from '../../queries/write'

// Remembering the tabs changes nothing any read shows (src/renderer/queries/invalidate.ts).
export const saveTabs = writeOptions('workbench/saveTabs')
