// Imports: dropped or chosen files, the import sheet (a lazy chunk) and the jobs panel.
export { splitDropped } from './dropped'
export { ImportButton } from './ImportButton'
export { ImportQueue, useImports } from './useImports'
