import { AppError } from '../contract'

/**
 * The limits import holds at the first byte, in one place (docs/reliability.md lists them). Each is far above
 * what an ordinary file meets, and each refusal says which limit was met and how to get past it.
 */

const MiB = 1024 * 1024
const GiB = 1024 * MiB

/**
 * The largest zstd window a frame may declare: 128 MiB, the reference decoder's own default (`zstd -d` refuses
 * more without `--long=31` / `--memory=`); `zstd -19` uses 8 MiB, `--ultra -22` 128 MiB. The decoder holds a
 * window of this size, so the limit bounds its memory.
 */
export const MAX_ZSTD_WINDOW = 128 * MiB

/**
 * Decompressed text may be at most this many times the compressed bytes read so far, once it passes
 * {@link RATIO_GRACE}. Measured: CSV and JSON compress 5–35× (a sensor log 9× gzip, 34× zstd -3); 100 mostly empty
 * columns 38× gzip, 113× zstd; 1,000 mostly empty columns 194× gzip, 710× zstd -19 — the most an ordinary file came
 * near. Deflate cannot pass ~1,032×, so a gzip file past 1,000× is all runs; a zstd bomb is ~30,000× (1 GiB of
 * newlines in 32 KB).
 */
export const MAX_RATIO = 1000

/**
 * A workbook's parts (deflated XML in a zip) may inflate to at most 250× their size past the grace below: SpreadsheetML
 * names every cell (`<c r="B7">`), so sheets deflate 10–50× (1 M rows of constant cells: 14×); Apache POI's default
 * refuses past 100×.
 * A part past it is all repetition (a 1 MB part of 1 GiB of empty tags once took 34 s).
 */
export const XLSX_MAX_RATIO = 250

/** The ratio is not judged on the first 64 MiB of output: a small file may be as repetitive as it likes. */
export const RATIO_GRACE = 64 * MiB

/**
 * At most this much decompressed text per file (64 GiB): far past any file a desktop import takes from a compressed
 * file in one go, and the bound on the time a compressed file can take. A plain file has no such limit.
 */
export const MAX_DECOMPRESSED = 64 * GiB

/**
 * The most columns a file may have: 16,384, an Excel sheet's own width (column XFD). Header handling is linear in the
 * column count; Lance's own cost is not: writing 3 rows took 9 s at 5,000 columns, 15 s at 10,000, 42 s at 16,384 and
 * 128 s at 20,000 (reading the first page 4.7, 8.5, 28 and 62 s) on a loaded 2-core machine.
 */
export const MAX_COLUMNS = 16_384

/**
 * The longest record (a CSV row, a JSON record) in characters: 64 Mi. A reader holds one record at a time; this bounds
 * it (a file of one endless line would otherwise be read whole, up to V8's 512 Mi-character string limit).
 */
export const MAX_RECORD_CHARS = 64 * MiB

/** The refusal of a file wider than {@link MAX_COLUMNS}; `what` says where the columns were counted. */
export function tooManyColumns(fileName: string, columns: number | string, what = 'columns'): AppError {
  return new AppError('unsupported', `${fileName} has ${typeof columns === 'number' ? columns.toLocaleString('en') : columns} ${what}; import takes at most ${MAX_COLUMNS.toLocaleString('en')} columns (as many as an Excel sheet has)`, {
    hint: 'Keep the columns you need in a copy of the file (e.g. cut -d, -f1-1000 for a CSV, or select them in DuckDB or a spreadsheet) and import that',
  })
}

/**
 * How deep a JSON record may nest: 1,000 levels (Jackson's default; .NET allows 64, serde_json 128; V8's JSON.parse
 * has no limit). Checked without recursion before a record is parsed; everything after (inference, conversion)
 * recurses over values, so this bound is what keeps them on the stack (10^5 levels once overflowed it).
 */
export const MAX_JSON_DEPTH = 1000

/**
 * Nested columns (lists, structs) are kept as such to this depth; deeper ones become their JSON text. Lance reads Arrow
 * schemas through flatbuffers checked to 64 levels: a list nested 61 deep failed ("DepthLimitReached"), 60 imported.
 */
export const MAX_NESTED_TYPE_DEPTH = 32

/** An Excel sheet's last column (XFD) and last row: cell references past them are refused, not counted up to. */
export const XLSX_MAX_COLUMN = 16_384
export const XLSX_MAX_ROW = 1_048_576

/** The most characters an Excel cell holds (Excel's own limit), also for a shared string. */
export const XLSX_MAX_CELL_CHARS = 32_767

/**
 * XML a workbook may hold without a tag: 1 Mi characters. The longest cell written with every character escaped
 * (`&quot;`: 6 each) is under 200 Ki; the XML parser holds a text node whole until its tag comes.
 */
export const XLSX_MAX_XML_RUN = 1024 * 1024

/**
 * A workbook's shared strings are held in memory while its sheet is read: at most 8 Mi entries (40 M empty `<si/>`,
 * a 290 KB file, once grew the process by 1 GiB; the characters cap alone let them through) and 256 Mi characters.
 */
export const XLSX_MAX_SHARED_STRINGS = 8 * 1024 * 1024
export const XLSX_MAX_SHARED_CHARS = 256 * MiB

/** A human size in binary units: `1.9 GiB`, `2.4 KiB`. */
export function bytesText(bytes: number): string {
  if (bytes >= GiB) return `${trim(bytes / GiB)} GiB`
  if (bytes >= MiB) return `${trim(bytes / MiB)} MiB`
  if (bytes >= 1024) return `${trim(bytes / 1024)} KiB`
  return `${bytes} bytes`
}

function trim(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en') : String(Math.round(n * 10) / 10)
}
