import { open, type FileHandle } from 'node:fs/promises'

/**
 * How many bytes of a CSV file polars parses at a time. polars maps the file it scans whole, and every page it has
 * parsed stays in the process's resident memory until the scan ends: a 1 GB file peaked at 1.5 GB RSS of which 1 GB
 * was the file. Windows of this size cut at row boundaries bound that to one window. `LCB_CSV_WINDOW_BYTES` sets it
 * (tests use tiny windows so that rows fall on the boundaries).
 */
export const DEFAULT_WINDOW_BYTES = 96 * 1024 * 1024

export function csvWindowBytes(): number {
  const env = Number(process.env.LCB_CSV_WINDOW_BYTES)
  return Number.isInteger(env) && env > 0 ? env : DEFAULT_WINDOW_BYTES
}

/** A window larger than this many times the window size (a row without an end, e.g. an unclosed quote) stops the native read. */
const MAX_GROWTH = 4
/** Grown windows read at least this much at a time. */
const MIN_READ = 64 * 1024

const QUOTE = 0x22
const NEWLINE = 0x0a

/**
 * The last row boundary (index of a newline outside quotes) in buf[from, to), scanning forward with `odd` telling
 * whether buf[from] is inside quotes; -1 when there is none. Every `"` flips the state: in well-formed CSV quotes
 * only open and close fields, and a doubled `""` inside a field flips it twice. (polars splits lines the same way.)
 * Also returns the state at `to`.
 */
export function lastBoundary(buf: Buffer, from: number, to: number, odd: boolean, stopAtFirst = false): { at: number; odd: boolean } {
  let at = -1
  let i = from
  if (!odd) {
    // Most files have no quotes (or few): memchr-speed searches until the first one.
    const firstQuote = buf.indexOf(QUOTE, from)
    const plainEnd = firstQuote === -1 || firstQuote >= to ? to : firstQuote
    if (plainEnd > from) {
      if (stopAtFirst) {
        const nl = buf.indexOf(NEWLINE, from)
        if (nl !== -1 && nl < plainEnd) return { at: nl, odd: false }
      } else {
        const nl = buf.lastIndexOf(NEWLINE, plainEnd - 1)
        if (nl >= from) at = nl
      }
    }
    i = plainEnd
  }
  let inQuotes = odd
  for (; i < to; i++) {
    const b = buf[i]
    if (b === QUOTE) inQuotes = !inQuotes
    else if (b === NEWLINE && !inQuotes) {
      at = i
      if (stopAtFirst) return { at, odd: false }
    }
  }
  return { at, odd: inQuotes }
}

/** One window: the bytes of whole rows, to be parsed after the header line. */
export interface CsvWindow {
  /** The header line (with a BOM if the file has one) for windows after the first; empty for the first. */
  header: Uint8Array
  /** Whole rows (the last one may lack its newline at the end of the file). Valid until the next window is asked for. */
  rows: Uint8Array
}

/**
 * The file in windows of about `size` bytes, each cut after a newline outside quotes (the last row boundary within
 * `size` bytes, or the first one after when a row is longer). The first window starts with the header; the header
 * is handed with every later one so each parses alone as the same CSV. One buffer is reused: a window's bytes are
 * valid until the next one is asked for. Throws when a row does not end within MAX_GROWTH windows.
 */
export async function* csvWindows(path: string, size: number): AsyncGenerator<CsvWindow> {
  const handle: FileHandle = await open(path, 'r')
  try {
    let buf = Buffer.allocUnsafe(Math.max(size, 1))
    let filled = 0
    let eof = false
    let header: Uint8Array | null = null
    const fill = async (): Promise<void> => {
      while (filled < buf.length && !eof) {
        const { bytesRead } = await handle.read(buf, filled, buf.length - filled, null)
        if (bytesRead === 0) eof = true
        filled += bytesRead
      }
    }
    for (;;) {
      await fill()
      if (filled === 0) return
      // Every window starts at a row boundary, outside quotes.
      let cut = lastBoundary(buf, 0, Math.min(size, filled), false).at
      if (cut === -1) {
        // A row longer than the window: up to its end.
        let scanned = Math.min(size, filled)
        let odd = lastBoundary(buf, 0, scanned, false).odd
        for (;;) {
          const found = lastBoundary(buf, scanned, filled, odd, true)
          if (found.at !== -1) {
            cut = found.at
            break
          }
          odd = found.odd
          scanned = filled
          if (eof) break
          if (filled === buf.length) {
            const grown = Math.max(buf.length * 2, buf.length + MIN_READ)
            if (grown > MAX_GROWTH * Math.max(size, MIN_READ)) throw new Error(`a row of this file does not end within ${MAX_GROWTH * Math.max(size, MIN_READ)} bytes`)
            const next = Buffer.allocUnsafe(grown)
            buf.copy(next, 0, 0, filled)
            buf = next
          }
          await fill()
        }
      }
      const end = cut === -1 ? filled : cut + 1
      if (header === null) {
        // The first row is the header (kept as a copy: the buffer is reused).
        const headerEnd = lastBoundary(buf, 0, end, false, true).at
        header = Uint8Array.prototype.slice.call(buf, 0, headerEnd === -1 ? end : headerEnd + 1)
        yield { header: new Uint8Array(0), rows: buf.subarray(0, end) }
      } else {
        yield { header, rows: buf.subarray(0, end) }
      }
      buf.copy(buf, 0, end, filled)
      filled -= end
      if (filled === 0 && eof) return
    }
  } finally {
    await handle.close()
  }
}
