/**
 * The core's public face for hosts (main, the harness, the server): what every one of them needs. The use-cases
 * are `core/service`, the namespace drivers `core/namespace`, table-view helpers `core/query`, Arrow `core/arrow`.
 */
export { toAppError } from './errors'
export { ensureLanceThreads } from './lanceThreads'
export { makeTempFolder, sweepTempFoldersAtStart, TEMP_PREFIXES } from './import/tempFolders'
