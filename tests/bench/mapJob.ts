/**
 * The map job alone, in its own process, for its peak RSS (the bench process also holds the bare scans' state):
 * `node --import tsx tests/bench/mapJob.ts <catalog root> [pca | umap <sample>]` prints `{ rows, ms, maxRssMiB }`
 * as JSON (the peak is this process's own: VmHWM, see `peakRssMiB`). It makes the coordinates as the app does
 * (`mapColumn`, or `umapColumn` with its worker thread, whose memory is this process's too) and encodes them as the
 * app keeps them (`encodeMap`).
 */
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { encodeMap, mapColumn, umapColumn } from '../../src/core/map'
import { BENCH_TABLE } from './data'
import { peakRssMiB } from './lib'

async function main(): Promise<void> {
  const [root, method = 'pca', sample] = process.argv.slice(2)
  if (!root || (method !== 'pca' && method !== 'umap')) throw new Error('usage: mapJob.ts <catalog root> [pca | umap <sample>]')
  const client = await DirNamespaceClient.open(root)
  const version = await client.latestVersion({ namespace: [...BENCH_TABLE.namespace], name: BENCH_TABLE.name })
  const started = Date.now()
  const table = { connectionId: 'bench', namespace: [...BENCH_TABLE.namespace], name: BENCH_TABLE.name }
  const result = method === 'umap' ? await umapColumn(client, table, version, 'vector', { sample: Number(sample) }) : await mapColumn(client, table, version, 'vector')
  const bytes = encodeMap(result)
  const ms = Date.now() - started
  await client.close()
  process.stdout.write(JSON.stringify({ rows: result.summary.rows, bytes: bytes.length, ms, maxRssMiB: peakRssMiB() }) + '\n')
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
