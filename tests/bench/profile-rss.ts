/**
 * Child of the profile bench: profiles one table through the service (as the app does) and prints its own
 * peak RSS, so the figure is this process's and not the bench runner's.
 */
import { ensureLanceThreads } from '../../src/core'
import type { ConnectionInfo, ProfileJobInfo, Result } from '../../src/contract'
import { CatalogService, MemoryRecentsStore } from '../../src/core/service'
import { peakRssMiB, printResult } from './lib'

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(JSON.stringify(result.error))
  return result.value as T
}

async function main(): Promise<void> {
  ensureLanceThreads()
  const [root, name] = process.argv.slice(2) as [string, string]
  const service = new CatalogService({ host: 'harness', version: 'bench', recents: new MemoryRecentsStore() })
  const connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
  const started = value<ProfileJobInfo>(await service.dispatch('profile/start', { connectionId: connection.id, namespace: [], name, view: {} }))
  const done = await service.profiles.wait(started.id)
  if (done.state !== 'done') throw new Error(`profile ${done.state}`)
  await service.closeAll()
  printResult({ maxRssMiB: peakRssMiB(), rows: done.result!.rows })
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
