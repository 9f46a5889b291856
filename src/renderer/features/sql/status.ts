import { formatCount, formatDuration } from '../../lib/format'
import { lineColumn } from './statements'
import type { QueryRun } from './useSqlQuery'

/** A query's time as a person reads it: `12 ms`, `1.24 s`, `3 min 5 s`. */
export function elapsedText(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`
  return formatDuration(ms / 1000)
}

const rows = (n: number) => `${formatCount(n)} ${n === 1 ? 'row' : 'rows'}`

/** The status line's words: the row count and the time taken, or where the run stands (`text`: the editor's text at Run). */
export function statusText(run: QueryRun, text: string): string {
  switch (run.phase) {
    case 'idle':
      return 'Ctrl/Cmd+Enter runs the statement under the caret (or the selection)'
    case 'starting':
      return 'Running…'
    case 'failed': {
      if (run.error.code === 'cancelled') return 'Cancelled'
      const at = errorPosition(run, text)
      return at ? `Failed at line ${at.line}, column ${at.column}` : 'Failed'
    }
    case 'result': {
      const { info } = run
      // Past the rows a query keeps for paging the rest is not read (the query stays open, not running on): say so,
      // and how to get all of it.
      if (info.capped && info.state !== 'cancelled') return `The first ${rows(info.rowCount ?? info.rowsSoFar)} in ${elapsedText(info.elapsedMs)}; the rest is not kept (narrow the query, or Save as table… to keep all of it)`
      if (info.state === 'running') return `Running… ${rows(info.rowsSoFar)} so far · ${elapsedText(info.elapsedMs)}`
      if (info.state === 'cancelled') return `Cancelled after ${rows(info.rowsSoFar)} · ${elapsedText(info.elapsedMs)}`
      return `${rows(info.rowCount ?? info.rowsSoFar)} in ${elapsedText(info.elapsedMs)}`
    }
  }
}

/** Where a failed run's error stands in the editor's whole text: its span moved by where the statement starts. */
export function errorSpan(run: QueryRun): { from: number; to: number } | null {
  if (run.phase !== 'failed' || !run.error.span) return null
  return { from: run.statement.from + run.error.span.start, to: run.statement.from + run.error.span.end }
}

/** The 1-based line and column of a failed run's error in the editor's text. */
export function errorPosition(run: QueryRun, text: string): { line: number; column: number } | null {
  const span = errorSpan(run)
  return span ? lineColumn(text, span.from) : null
}
