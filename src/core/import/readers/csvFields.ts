import { Transform, type TransformCallback } from 'node:stream'
import { AppError } from '../../../contract'
import { MAX_COLUMNS, tooManyColumns } from '../../limits'

/**
 * Counts each CSV record's fields as the text passes to csv-parse, and stops a record past {@link MAX_COLUMNS}
 * fields there: csv-parse holds a record's fields until its end, and a record only ends where the header's count is
 * checked — 40 MB of commas once held 1.8 GiB for 15 s. Quotes as csv-parse reads them here (relax_quotes): a
 * field starting with `"` runs to the next lone `"`, delimiters and line breaks inside it count for nothing.
 */
export class CsvFieldGuard extends Transform {
  private fields = 1
  private quoted = false
  private fieldStart = true
  /** The previous chunk ended on a quote inside a quoted field: the next character decides (`""` or the end). */
  private quoteAtEnd = false
  private line = 1
  private readonly delimiter: number
  private readonly ends: { lf: boolean; cr: boolean }

  constructor(
    private readonly fileName: string,
    delimiter: string,
    recordDelimiter: string | string[],
  ) {
    super({ decodeStrings: false, encoding: 'utf8' })
    this.delimiter = delimiter.charCodeAt(0)
    const all = Array.isArray(recordDelimiter) ? recordDelimiter : [recordDelimiter]
    this.ends = { lf: all.some((d) => d.includes('\n')), cr: all.includes('\r') }
  }

  override _transform(chunk: string, _enc: BufferEncoding, done: TransformCallback): void {
    const { delimiter, ends } = this
    let { fields, quoted, fieldStart, line } = this
    let i = 0
    if (this.quoteAtEnd) {
      this.quoteAtEnd = false
      if (chunk.charCodeAt(0) === 0x22) i = 1
      else quoted = false
    }
    for (; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i)
      if (c === 0x0a) line++
      if (quoted) {
        if (c === 0x22) {
          if (i + 1 === chunk.length) this.quoteAtEnd = true
          else if (chunk.charCodeAt(i + 1) === 0x22) i++
          else quoted = false
        }
        continue
      }
      if (c === delimiter) {
        if (++fields > MAX_COLUMNS) return done(this.tooMany(line))
        fieldStart = true
      } else if ((c === 0x0a && ends.lf) || (c === 0x0d && ends.cr)) {
        fields = 1
        fieldStart = true
      } else if (c === 0x22 && fieldStart) {
        quoted = true
        fieldStart = false
      } else if (c !== 0x0d) fieldStart = false
    }
    Object.assign(this, { fields, quoted, fieldStart, line })
    done(null, chunk)
  }

  private tooMany(line: number): AppError {
    if (line === 1) return tooManyColumns(this.fileName, `more than ${MAX_COLUMNS.toLocaleString('en')}`)
    return new AppError('unsupported', `${this.fileName} line ${line}: a row of more than ${MAX_COLUMNS.toLocaleString('en')} fields; import takes at most ${MAX_COLUMNS.toLocaleString('en')} columns`, {
      hint: 'Every row needs as many fields as the header; check for a missing or extra delimiter or quote',
    })
  }
}
