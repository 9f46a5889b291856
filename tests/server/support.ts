import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as arrow from 'apache-arrow'
import { startServer, type RunningServer, type ServerOptions } from '../../src/server'

export const KEY = 'test-key-0123456789'

/** A temp directory removed by the returned cleanup. */
export async function tempDir(prefix = 'lcb-server-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix))
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** Our server on loopback over a fresh temp catalog. */
export async function serveTemp(options: Partial<ServerOptions> = {}): Promise<RunningServer & { root: string }> {
  const { dir, cleanup } = await tempDir()
  const server = await startServer({ root: dir, apiKeys: [KEY], ...options })
  return {
    url: server.url,
    root: dir,
    close: async () => {
      await server.close()
      await cleanup()
    },
  }
}

export function sampleTable(rows = 3): arrow.Table {
  return arrow.tableFromArrays({
    id: BigInt64Array.from({ length: rows }, (_, i) => BigInt(i + 1)),
    label: Array.from({ length: rows }, (_, i) => `row ${i + 1}`),
  })
}

export function arrowStream(table: arrow.Table = sampleTable()): Uint8Array {
  return arrow.tableToIPC(table, 'stream')
}
