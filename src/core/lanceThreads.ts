import { availableParallelism } from 'node:os'

/** The smallest CPU pool on which Lance 8 (inside lancedb 0.31.0) builds a full-text index without deadlocking. */
export const MIN_LANCE_CPU_THREADS = 4

/**
 * Give Lance a CPU pool of at least {@link MIN_LANCE_CPU_THREADS} threads unless the user chose a size.
 *
 * Why: Lance sizes its pool by the machine's cores, and its FTS index writer blocks a pool thread while waiting on
 * work that needs another pool thread — on a 2-core machine building an FTS index on a column with ~1M distinct
 * words stalled forever (all threads idle, no I/O; measured in the query benchmark), and with 4 threads it took ~5 s.
 * Lance reads `LANCE_CPU_THREADS` when it first starts its pool, so call this before the first table operation.
 */
export function ensureLanceThreads(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism()): string {
  if (!env.LANCE_CPU_THREADS?.trim()) env.LANCE_CPU_THREADS = String(Math.max(MIN_LANCE_CPU_THREADS, cores))
  return env.LANCE_CPU_THREADS
}
