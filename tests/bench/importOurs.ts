import { basename } from 'node:path'
import type { ImportReaders } from '../../src/core/import/reader/readers'

// The app's own import as the import benches' children run it (bench/import.ts, bench/import-files.ts); the app's
// modules are loaded inside the functions, as before, so a child's start-up is what it was.

/**
 * BENCH_IMPORT_WARM=1: the file is previewed first, as the import sheet does, and the import's reader is then the one
 * started ahead (the app's flow: its start-up, ~0.4 s, is not waited for); the clock starts after. Else the import
 * starts its reader cold.
 */
export async function warmReaders(file: string): Promise<ImportReaders | undefined> {
  if (process.env.BENCH_IMPORT_WARM !== '1') return undefined
  const { ImportReaders } = await import('../../src/core/import/reader/readers')
  const readers = new ImportReaders()
  await readers.inspect({ path: file, fileName: basename(file) })
  await new Promise((resolve) => setTimeout(resolve, 1500)) // the spare is started once the preview's reader has ended
  return readers
}

/** The app's import pipeline (ImportJobs into a dir catalog at `root`) of `file` as the table `bench`: its rows. */
export async function runOurs(file: string, root: string, readers?: ImportReaders): Promise<number> {
  const { connectNamespace } = await import('../../src/core/namespace/connect')
  const { ImportJobs } = await import('../../src/core/import/jobs')
  const client = await connectNamespace('dir', { root, create: 'true' })
  const jobs = new ImportJobs({ readers })
  const job = jobs.enqueue({ connectionId: 'bench', client, namespace: [], name: 'bench', mode: 'create', path: file, fileName: basename(file) })
  const done = await jobs.wait(job.id)
  if (done.state !== 'done') throw new Error(`import ${done.state}: ${done.error?.message}`)
  await client.close()
  return done.result!.rowCount
}
