import type { JobInfo, TableRef } from '../../contract'
import { toAppError } from '../errors'
import type { Job } from './registry'

/** The jobs that scan a table (Summary, map, version diff): rows read so far, of how many when known. */
type ScanInfo = Extract<JobInfo, { progress: { rows: number; totalRows: number | null }; table: TableRef }>

export interface Scan<I extends ScanInfo> {
  signal: AbortSignal
  /** Report progress (ignored once the job has ended). */
  progress: (progress: I['progress']) => void
}

export interface RunScanOptions {
  /**
   * `work` awaits `job.slot()` itself, after what costs nothing (answering from a kept result, which then never
   * waits behind other jobs). By default the scan waits for its slot in the budget before `work` begins.
   */
  slotInWork?: boolean
}

/**
 * Run a scan job to its end: `work` reads (reporting progress) and, once it has everything, stores its result
 * on the job; the job then ends done — or cancelled when it was asked to stop, or failed with the error in
 * words. A scan stopped or failed before `work` returned has stored nothing. It first waits for its slot in the
 * session's budget (src/core/jobs/budget.ts), queued meanwhile, unless `work` takes it itself.
 */
export async function runScan<I extends ScanInfo>(job: Job<I>, work: (scan: Scan<I>) => Promise<void>, options: RunScanOptions = {}): Promise<void> {
  // Let `start` return (and publish its record) before the scan begins.
  await Promise.resolve()
  const { info, signal } = job
  try {
    if (!options.slotInWork) await job.slot()
    signal.throwIfAborted()
    await work({
      signal,
      progress: (progress) => {
        if (info.state !== 'running') return
        info.progress = progress
        job.publish()
      },
    })
    // Still queued when `work` answered from a kept result without taking a slot.
    if (job.live) job.finish('done')
  } catch (error) {
    const e = toAppError(error)
    if (signal.aborted || e.code === 'cancelled') job.finish('cancelled')
    else job.finish('failed', e)
  }
}

/** A scan job's own fields copied for a snapshot; its result is shared (never changed once made). */
export function copyScanInfo<I extends ScanInfo>(info: I): I {
  return { ...info, table: { ...info.table, namespace: [...info.table.namespace] }, progress: { ...info.progress } }
}
