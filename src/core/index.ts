/**
 * The core's public face for hosts (main's catalog host process, the harness, the server): what every one of them
 * needs. The use-cases are `core/service`, the namespace drivers `core/namespace`, table-view helpers `core/query`,
 * Arrow `core/arrow`.
 */
export { toAppError } from './errors'
export { ensureLanceThreads } from './lanceThreads'
export { mcpLauncherOf } from './host'
export { FileSideCache, MemorySideCache, type SideCache } from './sideCache'
export { SettingsFile } from './settings'
export { ConnectionStore, JsonFileConnectionRecords } from './connections/store'
export { ObjectStoreConnectionStore, type SavedObjectStore } from './connections/objectStoreStore'
export type { SecretStore } from './connections/model'
export { ensureDemoCatalog } from './demo'
export { makeTempFolder, sweepTempFoldersAtStart, TEMP_PREFIXES } from './tempFolders'
