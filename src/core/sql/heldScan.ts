import { DuckDBTableFunction, INTEGER, type DuckDBConnection, type DuckDBType } from '@duckdb/node-api'
import type { Data, RecordBatch } from 'apache-arrow'
import { CHUNK_ROWS, fillChunk, inlineStrings } from './handover'

/** The table function DuckDB scans held tables through; statements cannot name it (statement.ts refuses it). */
export const HELD_SCAN_FUNCTION = '__lcb_scan'

/** A table version's columns read from Lance, held as Arrow batches for DuckDB to scan. */
export interface HeldTable {
  names: readonly string[]
  types: readonly DuckDBType[]
  /**
   * Per batch, its columns' Arrow data in `names`' order, and for a column of short strings their DuckDB structs,
   * laid out once (each scan of a held table would otherwise lay them out again: Q1's two flag columns cost ~100 ms).
   */
  batches: readonly { rows: number; columns: readonly Data[]; inline: readonly (Uint8Array | undefined)[] }[]
  rows: number
  bytes: number
}

interface ScanState {
  batch: number
  row: number
  /** The held columns DuckDB asked for (projection pushdown), in the order of its output vectors. */
  columns: number[]
}

/** One batch of a held table: its columns' Arrow data in `names`' order, their short strings laid out, its bytes. */
export type HeldBatch = HeldTable['batches'][number] & { bytes: number }

/** A batch Lance answered, ready to hold: its columns picked in `names`' order, short strings laid out once. */
export function heldBatch(names: readonly string[], batch: RecordBatch): HeldBatch {
  let bytes = 0
  const columns = names.map((name) => {
    const data = batch.getChild(name)!.data[0]!
    bytes += dataBytes(data)
    return data
  })
  const inline = columns.map((data) => {
    const structs = inlineStrings(data)
    bytes += structs?.byteLength ?? 0
    return structs
  })
  return { rows: batch.numRows, columns, inline, bytes }
}

/** A held table of its batches. */
export function heldTable(names: readonly string[], types: readonly DuckDBType[], batches: readonly HeldBatch[]): HeldTable {
  return { names, types, batches, rows: batches.reduce((sum, b) => sum + b.rows, 0), bytes: batches.reduce((sum, b) => sum + b.bytes, 0) }
}

/** The bytes an Arrow column's buffers take (values, offsets, validity, and its children's). */
export function dataBytes(data: Data): number {
  const own = [data.values, data.valueOffsets, data.nullBitmap].reduce((sum, b) => sum + ((b as ArrayBufferView | undefined)?.byteLength ?? 0), 0)
  return own + data.children.reduce((sum, child) => sum + dataBytes(child), 0)
}

/**
 * Catalog tables held in this process as Arrow batches, scanned by DuckDB through a table function
 * (`__lcb_scan(n)`) that copies a chunk of 2,048 rows at a time into DuckDB's vectors when DuckDB asks for it.
 * Writing the rows into a DuckDB table first cost more than the query itself: DuckDB's appender and table storage
 * took ~1.2 s for Q1's 1M rows × 7 columns, the scan through the function ~0.1 s over a query of ~0.1 s (measured
 * in `npm run bench -- sql`). DuckDB calls the function on the JS thread (node-api runs every callback there), so
 * the rows must be here before the query starts: Lance's reads are asynchronous and a callback cannot wait.
 */
export class HeldTables {
  private readonly held = new Map<number, HeldTable>()
  private next = 0

  /** Make the table function known to the engine (once, on any connection: DuckDB's catalog is shared). */
  register(connection: DuckDBConnection): void {
    connection.registerTableFunction(
      DuckDBTableFunction.create({
        name: HELD_SCAN_FUNCTION,
        parameterTypes: [INTEGER],
        supportsProjectionPushdown: true,
        bindFunction: (info) => {
          const table = this.held.get(Number(info.getParameter(0)))
          if (!table) return info.setError('This table is no longer held: run the query again')
          table.names.forEach((name, i) => info.addResultColumn(name, table.types[i]!))
          info.setCardinality(table.rows, true)
          // The bind data keeps the batches alive for a running query even if the table is dropped meanwhile.
          info.setBindData({ table })
        },
        initFunction: (info) => {
          const count = (info.bindData as { table: HeldTable }).table.names.length
          const columns = info.getColumnIndexes().filter((i) => i < count)
          info.setInitData({ batch: 0, row: 0, columns } satisfies ScanState)
        },
        mainFunction: (info, output) => {
          const { table } = info.bindData as { table: HeldTable }
          const state = info.initData as ScanState
          while (state.batch < table.batches.length && state.row >= table.batches[state.batch]!.rows) {
            state.batch++
            state.row = 0
          }
          const batch = table.batches[state.batch]
          if (!batch) {
            output.rowCount = 0
            return
          }
          const rows = Math.min(CHUNK_ROWS, batch.rows - state.row)
          try {
            fillChunk(output, state.columns.map((c) => batch.columns[c]!), state.row, rows, state.columns.map((c) => batch.inline[c]))
          } catch (error) {
            output.rowCount = 0
            return info.setError(error instanceof Error ? error.message : String(error))
          }
          state.row += rows
        },
      }),
    )
  }

  /** Hold a table; the SQL that names it. */
  add(table: HeldTable): string {
    const id = ++this.next
    this.held.set(id, table)
    return `${HELD_SCAN_FUNCTION}(${id})`
  }

  /** Let a table go (a query still scanning it keeps its batches until it ends). */
  drop(reference: string): void {
    const id = /\((\d+)\)$/.exec(reference)?.[1]
    if (id) this.held.delete(Number(id))
  }
}
