import type { ImportProgress } from '../../contract'

/**
 * Progress with rates and time left, throttled: the renderer gets at most one update per
 * `intervalMs` (plus phase changes and the last one), however small the chunks.
 */
export class ProgressMeter {
  private readonly startedAt = Date.now()
  private lastEmit = 0
  private current: ImportProgress

  constructor(
    totalBytes: number,
    totalRows: number | null,
    private readonly emit: (p: ImportProgress) => void,
    private readonly intervalMs = 100,
  ) {
    this.current = { bytesRead: 0, totalBytes, rows: 0, totalRows, rowsPerSecond: 0, bytesPerSecond: 0, etaSeconds: null, phase: 'reading' }
  }

  get snapshot(): ImportProgress {
    return { ...this.current }
  }

  update(change: Partial<Pick<ImportProgress, 'bytesRead' | 'rows' | 'phase' | 'totalRows'>>, force = false): void {
    const phaseChanged = change.phase !== undefined && change.phase !== this.current.phase
    Object.assign(this.current, change)
    const elapsed = (Date.now() - this.startedAt) / 1000
    const p = this.current
    if (elapsed > 0) {
      p.rowsPerSecond = Math.round(p.rows / elapsed)
      p.bytesPerSecond = Math.round(p.bytesRead / elapsed)
    }
    p.etaSeconds =
      p.phase === 'finished'
        ? 0
        : elapsed >= 0.5 && p.bytesPerSecond > 0
          ? Math.max(0, Math.round((p.totalBytes - p.bytesRead) / p.bytesPerSecond))
          : null
    const now = Date.now()
    if (force || phaseChanged || now - this.lastEmit >= this.intervalMs) {
      this.lastEmit = now
      this.emit({ ...p })
    }
  }
}
