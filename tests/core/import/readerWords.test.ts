/**
 * The words a reader process's end is told in (src/core/import/reader/words.ts), and its ceilings' settings
 * (limits.ts). The ends themselves are made for real in isolation.test.ts; here every kind of end is named.
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_READER_LIMITS, readerLimits } from '../../../src/core/import/reader/limits'
import { panicMessage, readerEndedError, type ReaderContext } from '../../../src/core/import/reader/words'

/** What polars 0.53 (nodejs-polars 0.24) printed reading the +05:30 Parquet file, backtrace cut. */
const ZONE_PANIC = `thread '<unnamed>' (8014) panicked at /home/runner/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/polars-core-0.53.0/src/datatypes/field.rs:195:81:
called \`Result::unwrap()\` on an \`Err\` value: ComputeError(ErrString("unable to parse time zone: '+05:30'. Please check the Time Zone Database for a list of available time zones.\\n\\nHint: did you mean 'GMT+0' instead?\\n\\nIf you would like to forcibly disable timezone validation, set POLARS_IGNORE_TIMEZONE_PARSE_ERROR=1."))
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace

thread '<unnamed>' (8014) panicked at /rustc/31cd367b9ca1ce359268e7adf4ea540408c0ad85/library/core/src/panicking.rs:225:5:
panic in a function that cannot unwind
thread caused non-unwinding panic. aborting.
`

const parquet: ReaderContext = {
  fileName: 'zoned.parquet',
  format: 'parquet',
  doing: 'preview',
  heapMb: 1024,
  columns: [
    { name: 'id', type: 'Int32' },
    { name: 'ts', type: 'Timestamp<MILLISECOND, UTC>', zone: '+05:30' },
  ],
}

describe('a reader that ended on its own', () => {
  it("reads a panic's own message, not the abort that follows it", () => {
    expect(panicMessage(ZONE_PANIC)).toBe("unable to parse time zone: '+05:30'. Please check the Time Zone Database for a list of available time zones.")
    expect(panicMessage("thread 'main' panicked at src/x.rs:1:2:\nindex out of bounds: the len is 3 but the index is 7\n")).toBe('index out of bounds: the len is 3 but the index is 7')
    expect(panicMessage('Segmentation fault\n')).toBeNull()
  })

  it('names the zone and the column a timestamp panic stopped on', () => {
    const error = readerEndedError({ kind: 'exit', code: null, signal: 'SIGABRT', stderr: ZONE_PANIC }, parquet)
    expect(error).toMatchObject({ code: 'unsupported', message: 'The Parquet reader stopped on the timestamp zone +05:30 in column `ts` of zoned.parquet' })
    expect(error.hint).toMatch(/UTC/)
    // Several columns with that zone are all named; a zone the reader did not see is said without a column.
    const two = { ...parquet, columns: [...parquet.columns!, { name: 'seen', type: 'Timestamp<MILLISECOND, UTC>', zone: '+05:30' }] }
    expect(readerEndedError({ kind: 'exit', code: null, signal: 'SIGABRT', stderr: ZONE_PANIC }, two).message).toBe(
      'The Parquet reader stopped on the timestamp zone +05:30 in columns `ts`, `seen` of zoned.parquet',
    )
    expect(readerEndedError({ kind: 'exit', code: null, signal: 'SIGABRT', stderr: ZONE_PANIC }, { ...parquet, columns: [] }).message).toBe(
      'The Parquet reader stopped on the timestamp zone +05:30 of zoned.parquet',
    )
  })

  it('says which reader stopped, how, and the panic line for any other panic', () => {
    const stderr = "thread 'polars-3' panicked at crates/polars-io/src/csv.rs:10:5:\nattempt to subtract with overflow. Extra words here.\n"
    const error = readerEndedError({ kind: 'exit', code: null, signal: 'SIGABRT', stderr }, { ...parquet, fileName: 'a.csv', format: 'csv' })
    expect(error).toMatchObject({ code: 'unsupported', message: 'The CSV reader stopped unexpectedly on a.csv (it was killed by SIGABRT): attempt to subtract with overflow.' })
    expect(error.detail).toContain('csv.rs:10:5')
  })

  it('a kill from outside is "try again"; a signal without a panic is the file; an exit code is our own bug', () => {
    const context = { ...parquet, fileName: 'a.csv', format: 'csv' as const }
    expect(readerEndedError({ kind: 'exit', code: null, signal: 'SIGKILL', stderr: '' }, context)).toMatchObject({
      code: 'unavailable',
      message: 'The CSV reader was stopped from outside while it read a.csv (it was killed by SIGKILL)',
    })
    expect(readerEndedError({ kind: 'exit', code: null, signal: 'SIGSEGV', stderr: '' }, context)).toMatchObject({ code: 'unsupported', message: 'The CSV reader stopped unexpectedly on a.csv (it was killed by SIGSEGV)' })
    expect(readerEndedError({ kind: 'exit', code: 1, signal: null, stderr: 'TypeError: x is not a function\n' }, context)).toMatchObject({
      code: 'internal',
      message: 'The CSV reader ended unexpectedly while it read a.csv (it exited with code 1)',
      detail: 'TypeError: x is not a function',
    })
    // Before the reader said what it reads.
    expect(readerEndedError({ kind: 'exit', code: null, signal: 'SIGKILL', stderr: '' }, { fileName: 'a.bin', doing: 'sniff', heapMb: 1024 }).message).toBe(
      'The reader was stopped from outside while it read a.bin (it was killed by SIGKILL)',
    )
  })

  it("names the ceilings: its own memory watch's last words, V8's heap report", () => {
    const own = readerEndedError({ kind: 'exit', code: null, signal: 'SIGKILL', stderr: `lcb-reader: memory ${200 * 2 ** 20} over ${100 * 2 ** 20}\n` }, parquet)
    expect(own).toMatchObject({ code: 'unsupported', message: 'The Parquet reader needed more than 100 MiB of memory for zoned.parquet, so it was stopped', detail: 'Resident memory 200 MiB; the ceiling is 100 MiB (LCB_IMPORT_READER_RSS_MB)' })
    const heap = readerEndedError({ kind: 'exit', code: null, signal: 'SIGABRT', stderr: 'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n' }, parquet)
    expect(heap).toMatchObject({ code: 'unsupported', message: 'The Parquet reader needed more than its 1024 MiB of JavaScript memory for zoned.parquet, so it stopped' })
  })
})

describe('a reader the host ended', () => {
  it('says the budget, the ceiling, or the cancel', () => {
    expect(readerEndedError({ kind: 'time', seconds: 60, budget: 'total' }, parquet)).toMatchObject({ code: 'timeout', message: 'The Parquet reader took more than 60 seconds to preview zoned.parquet, so it was stopped' })
    expect(readerEndedError({ kind: 'time', seconds: 1, budget: 'total' }, { ...parquet, doing: 'sniff' }).message).toBe('The Parquet reader took more than 1 second to look at zoned.parquet, so it was stopped')
    expect(readerEndedError({ kind: 'time', seconds: 120, budget: 'idle' }, { ...parquet, doing: 'import' })).toMatchObject({
      code: 'timeout',
      message: 'The Parquet reader made no progress on zoned.parquet for 120 seconds, so the import was stopped',
    })
    expect(readerEndedError({ kind: 'memory', rssBytes: 1600 * 2 ** 20, ceilingBytes: 1536 * 2 ** 20 }, parquet)).toMatchObject({
      code: 'unsupported',
      message: 'The Parquet reader needed more than 1536 MiB of memory for zoned.parquet, so it was stopped',
    })
    expect(readerEndedError({ kind: 'cancelled' }, parquet)).toMatchObject({ code: 'cancelled' })
    expect(readerEndedError({ kind: 'failed', message: "its chunks' socket: ECONNREFUSED" }, parquet)).toMatchObject({ code: 'internal', detail: "its chunks' socket: ECONNREFUSED" })
  })
})

describe('reader limits', () => {
  it('take the option, else the environment, else the default', () => {
    expect(readerLimits({}, {})).toEqual(DEFAULT_READER_LIMITS)
    expect(readerLimits({}, { LCB_IMPORT_READER_RSS_MB: '300', LCB_IMPORT_READER_HEAP_MB: '200', LCB_IMPORT_READER_PREVIEW_S: '5', LCB_IMPORT_READER_IDLE_S: '9', LCB_IMPORT_READER_WATCH_MS: '50' })).toMatchObject({
      rssMb: 300,
      heapMb: 200,
      previewSeconds: 5,
      idleSeconds: 9,
      watchMs: 50,
    })
    expect(readerLimits({ rssMb: 100 }, { LCB_IMPORT_READER_RSS_MB: '300' }).rssMb).toBe(100)
    // Nonsense in the environment is ignored.
    expect(readerLimits({}, { LCB_IMPORT_READER_RSS_MB: 'lots', LCB_IMPORT_READER_HEAP_MB: '-1', LCB_IMPORT_READER_PREVIEW_S: '' })).toEqual(DEFAULT_READER_LIMITS)
  })

  it('keep every reader under 2 GiB by default', () => {
    expect(DEFAULT_READER_LIMITS.rssMb).toBeLessThan(2048)
    expect(DEFAULT_READER_LIMITS.heapMb).toBeLessThan(DEFAULT_READER_LIMITS.rssMb)
  })
})
