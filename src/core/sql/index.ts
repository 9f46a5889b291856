export { SqlModule, type SqlModuleDeps } from './module'
export { isSqlHistoryStore, MemorySqlHistoryStore, type SqlHistoryStore } from './history'
