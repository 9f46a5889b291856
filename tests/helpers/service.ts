import type { AppErrorData, ConnectionInfo, Result } from '../../src/contract'
import { CatalogService, MemoryRecentsStore, type RecentsStore } from '../../src/core/service'

/** The value of a contract call that should have worked (fails the test, naming the error, if it did not). */
export function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

/** The error of a contract call that should have been refused. */
export function failure(result: Result<unknown>): AppErrorData {
  if (result.ok) throw new Error(`expected an error, got ${JSON.stringify(result.value)}`)
  return result.error
}

/** A harness-host service with the directory catalog at `root` open (recents in memory unless given, e.g. a settings file). */
export async function openCatalog(root: string, recents: RecentsStore = new MemoryRecentsStore()): Promise<{ service: CatalogService; connection: ConnectionInfo }> {
  const service = new CatalogService({ host: 'harness', version: '0', recents })
  const connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  return { service, connection }
}
