import { open, type FileHandle } from 'node:fs/promises'
import { join } from 'node:path'

/**
 * How many bytes of a CSV file polars parses at a time. polars maps the file it scans whole, and every page it has
 * parsed stays in the process's resident memory until the scan ends: a 1 GB file peaked at 1.5 GB RSS of which 1 GB
 * was the file. Windows of this size cut at row boundaries bound that to one window. `LCB_CSV_WINDOW_BYTES` sets it
 * (tests use tiny windows so that rows fall on the boundaries).
 */
export const DEFAULT_WINDOW_BYTES = 32 * 1024 * 1024

export function csvWindowBytes(): number {
  const env = Number(process.env.LCB_CSV_WINDOW_BYTES)
  return Number.isInteger(env) && env > 0 ? env : DEFAULT_WINDOW_BYTES
}

/** A window that grows past this many times the window size (a row without an end, e.g. an unclosed quote) stops the native read. */
const MAX_GROWTH = 4
/** The file is copied through a buffer of this size (the only memory a window costs this process besides polars' map of it). */
const CHUNK = 1024 * 1024

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

/**
 * Copies the file into window files in `folder` and yields each one's path once it is written: a window holds
 * whole rows, cut at the first row boundary (a newline outside quotes) from `size` bytes on, and windows after the
 * first start with a copy of the header line (with the BOM if there is one), so each parses alone as the same CSV.
 * The copy goes through a small buffer, cut and written while polars parses the previous window. Throws when a row
 * does not end within MAX_GROWTH windows.
 */
export async function* csvWindowFiles(path: string, size: number, folder: string): AsyncGenerator<string> {
  const input = await open(path, 'r')
  const buf = Buffer.allocUnsafe(CHUNK)
  const limit = MAX_GROWTH * Math.max(size, CHUNK)
  let out: FileHandle | null = null
  let outPath = ''
  let count = 0
  let written = 0
  /** Whether the copy is inside quotes where it has got to. */
  let odd = false
  const headerParts: Buffer[] = []
  let header: Buffer | null = null
  let headerOdd = false
  try {
    for (;;) {
      const { bytesRead: n } = await input.read(buf, 0, buf.length, null)
      if (n === 0) break
      if (header === null) {
        const found = lastBoundary(buf, 0, n, headerOdd, true)
        headerOdd = found.odd
        headerParts.push(Buffer.from(buf.subarray(0, found.at === -1 ? n : found.at + 1)))
        if (found.at !== -1) header = Buffer.concat(headerParts)
      }
      let pos = 0
      while (pos < n) {
        if (!out) {
          outPath = join(folder, `window-${++count}.csv`)
          out = await open(outPath, 'w')
          written = 0
          if (count > 1 && header) await out.write(header)
        }
        // Bytes still to copy before a cut may come.
        const from = Math.min(n, pos + Math.max(0, size - written))
        odd = lastBoundary(buf, pos, from, odd).odd
        const cut = from < n ? lastBoundary(buf, from, n, odd, true).at : -1
        const end = cut === -1 ? n : cut + 1
        if (cut === -1 && from < n) odd = lastBoundary(buf, from, n, odd).odd
        else if (cut !== -1) odd = false
        await out.write(buf, pos, end - pos)
        written += end - pos
        pos = end
        if (cut !== -1) {
          await out.close()
          out = null
          yield outPath
        } else if (written > limit) {
          throw new Error(`a row of this file does not end within ${limit} bytes`)
        }
      }
    }
    if (out) {
      await out.close()
      out = null
      yield outPath
    }
  } finally {
    await out?.close().catch(() => undefined)
    await input.close()
  }
}
