import { useCallback, useState, type RefObject } from 'react'
import type { Table as ArrowTable } from 'apache-arrow'
import type { TextFormat } from '../../../contract'
import { isAbort } from '../../api'
import { copyText, LARGE_COPY_ROWS, writeClipboard, type RowSource } from './copy'
import { rangeSize, type CellRange } from './selection'
import { formatCount } from '../../lib/format'

export const FORMAT_NAMES: Record<TextFormat, string> = { tsv: 'TSV', csv: 'CSV', json: 'JSON', jsonl: 'JSON lines', markdown: 'Markdown' }

export type CopyState = { state: 'confirm'; range: CellRange; format: TextFormat } | { state: 'running'; done: number; total: number; controller: AbortController } | null

/** What a copy reads from: the grid's visible columns and its loaded pages, else the contract. */
export interface CopySource {
  columns: readonly string[]
  pageOf(row: number): ArrowTable | undefined
  pageRows: number
  fetch: RowSource['fetch']
}

/**
 * A copy of a range of the grid to the clipboard: asked first when it is over LARGE_COPY_ROWS rows, shown while it
 * runs (cancellable), then a notice saying what was copied or why not.
 */
export function useGridCopy(sourceRef: RefObject<CopySource>) {
  const [copy, setCopy] = useState<CopyState>(null)
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null)

  const runCopy = useCallback(
    async (target: CellRange, format: TextFormat) => {
      const controller = new AbortController()
      const total = rangeSize(target).rows
      setNotice(null)
      setCopy({ state: 'running', done: 0, total, controller })
      const o = sourceRef.current
      try {
        const text = await copyText(
          target,
          o.columns,
          format,
          {
            cached: (row) => {
              const page = o.pageOf(row)
              return page ? { page, pageRow: row % o.pageRows } : undefined
            },
            fetch: o.fetch,
          },
          controller.signal,
          (done) => setCopy((c) => (c?.state === 'running' ? { ...c, done } : c)),
        )
        await writeClipboard(text)
        const size = rangeSize(target)
        setNotice({ text: `Copied ${formatCount(size.rows)} × ${formatCount(size.columns)} as ${FORMAT_NAMES[format]}`, error: false })
      } catch (error) {
        if (!isAbort(error) && !controller.signal.aborted) setNotice({ text: `Could not copy: ${error instanceof Error ? error.message : String(error)}`, error: true })
      } finally {
        setCopy(null)
      }
    },
    [sourceRef],
  )

  /** Copies `range`, asking first when it is large. */
  const startCopy = useCallback(
    (range: CellRange, format: TextFormat) => {
      if (rangeSize(range).rows > LARGE_COPY_ROWS) setCopy({ state: 'confirm', range, format })
      else void runCopy(range, format)
    },
    [runCopy],
  )

  return { copy, notice, runCopy, startCopy, cancelConfirm: () => setCopy(null), dismissNotice: () => setNotice(null) }
}
