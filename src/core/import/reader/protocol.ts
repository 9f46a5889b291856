import type { AppErrorData, ImportColumnType, ImportMode, SheetLayout } from '../../../contract'
import type { ChunkLimits } from '../chunks'
import type { FileInspection } from '../preview'
import type { ImportFormat } from '../sniff'

/**
 * What the host and a reader process say to each other. Control messages travel over the child's IPC channel
 * (`serialization: 'advanced'`, so the preview's sample bytes cross as bytes); an import's chunks travel as bytes
 * over a socket of their own (see `data`), each announced by a `chunk` message, in order.
 */

/** The file and how to read it (what `openSource` takes). */
export interface FileRequest {
  path: string
  fileName: string
  datesAsText?: boolean
  sheet?: string
  layout?: SheetLayout
  columnTypes?: Record<string, ImportColumnType>
  vectorColumns?: string[]
}

/** The one task of a reader process: its first message. */
export type ReaderTask =
  | { type: 'inspect'; file: FileRequest }
  | { type: 'sniff'; path: string; fileName: string }
  | {
      type: 'import'
      file: FileRequest
      mode: ImportMode
      limits: ChunkLimits
      /** The target takes IPC bytes as they are (raw pass-through groups may be sent). */
      ipc: boolean
    }

/** The host's later messages during an import. */
export type HostMessage =
  /** The mode checks passed: write. `appendColumns` puts each chunk's columns in the table's order. */
  | { type: 'go'; appendColumns: string[] | null }
  /** One more chunk may be sent (the host has started writing the one before). */
  | { type: 'more' }

/** A column as the reader saw it in the file (for words about a reader that died on it). */
export interface ColumnNote {
  name: string
  type: string
  /** A timestamp's zone as the file's writer declared it (Parquet: its Arrow schema), when it has one. */
  zone?: string
}

export type ReaderMessage =
  /** The file's format, told by its first bytes, before a reader opens it (words can then name the reader). */
  | { type: 'format'; format: ImportFormat }
  /** The file is open (before its first batch is read): what the host can tell if the reader dies next. */
  | { type: 'source'; format: ImportFormat; size: number; rowCount: number | null; columns: ColumnNote[] }
  | { type: 'inspected'; file: FileInspection; sample: Uint8Array }
  | { type: 'sniffed'; format: ImportFormat; size: number }
  /** Where to connect for the chunks' bytes (a Unix socket, or a named pipe on Windows). */
  | { type: 'data'; address: string }
  /** The first batch is read: the written schema, as an Arrow IPC stream with no batches. */
  | { type: 'opened'; schema: Uint8Array }
  /** A chunk's bytes follow on the data socket (`length` bytes after an 8-byte length). */
  | { type: 'chunk'; kind: 'ipc' | 'raw'; rows: number; length: number; bytesRead: number }
  /** Sent every second while the reader's event loop runs. */
  | { type: 'progress'; bytesRead: number }
  | { type: 'done'; chunks: number; bytesRead: number }
  | { type: 'error'; error: AppErrorData }

/** Bytes before each chunk on the data socket: its length, a little-endian 64-bit integer. */
export const FRAME_HEADER = 8

/** Marks a reader's own last words on stderr (why it killed itself), for the host to find in the tail. */
export const STDERR_MARK = 'lcb-reader:'
