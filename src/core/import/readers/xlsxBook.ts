import { basename } from 'node:path'
import type { Readable } from 'node:stream'
import { SaxesParser, type SaxesTagPlain } from 'saxes'
import yauzl from 'yauzl'
import { InflateWatch } from './inflate'
import { XLSX_MAX_RATIO, XLSX_MAX_CELL_CHARS, XLSX_MAX_SHARED_CHARS, XLSX_MAX_SHARED_STRINGS, XLSX_MAX_XML_RUN } from '../../limits'

/**
 * The parts of an Excel workbook (.xlsx: a zip of XML, Office Open XML / ECMA-376) that import needs, read with
 * yauzl (the zip's central directory, so any entry can be opened in any order) and saxes (streaming XML). The
 * sheet's XML is streamed row by row; the workbook, its relationships, styles and shared strings are read whole
 * (the shared strings are the one part that grows with the data — bounded below).
 */
export interface Workbook {
  /** Sheets in tab order, with the zip entry holding each. */
  sheets: { name: string; entry: string }[]
  /** Dates count from 1904 (old Mac workbooks) instead of 1900. */
  date1904: boolean
  sharedStrings: string[]
  /** Per cell style index (`s`): whether the style formats a number as a date or time. */
  dateStyles: boolean[]
  /** Stream one entry's bytes. */
  open(entry: string): Promise<Readable>
  /** An entry's size once inflated (for progress). */
  size(entry: string): number
  close(): void
}

export class WorkbookError extends Error {}

/** A workbook past one of import's limits (not damaged): `message` follows the file's name; `hint` says what to do. */
export class WorkbookLimit extends WorkbookError {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message)
  }
}

const SHARED_HINT = 'Save the sheet as CSV and import that: a CSV is read row by row, with no table of strings held'

export async function openWorkbook(path: string, fileName = basename(path)): Promise<Workbook> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true }, (error, file) => (error ? reject(error) : resolve(file))),
  )
  try {
    const entries = await listEntries(zip)
    const open = (name: string) => {
      const entry = entries.get(name)
      if (!entry) return Promise.reject(new WorkbookError(`the workbook has no ${name}`))
      return new Promise<Readable>((resolve, reject) =>
        zip.openReadStream(entry, (error, stream) => {
          if (error) return reject(error)
          // An entry inflates by the ratio and size limits of any compressed file (a deflate bomb of `<row/>`s).
          const watch = new InflateWatch({
            fileName,
            makes: `: its part ${name} inflates`,
            bytesIn: () => entry.compressedSize,
            maxRatio: XLSX_MAX_RATIO,
            hint: 'If the workbook is genuine, save the sheet as CSV and import that',
          })
          stream.on('error', (e) => watch.destroy(e))
          watch.on('close', () => stream.destroy())
          resolve(stream.pipe(watch))
        }),
      )
    }
    const optional = (name: string) => (entries.has(name) ? open(name) : null)
    if (!entries.has('xl/workbook.xml')) throw new WorkbookError('it is a zip archive without xl/workbook.xml, so not an Excel workbook')
    const book = await readWorkbook(await open('xl/workbook.xml'))
    const rels = entries.has('xl/_rels/workbook.xml.rels') ? await readRelationships(await open('xl/_rels/workbook.xml.rels')) : new Map<string, string>()
    const sheets = book.sheets.map((s) => ({ name: s.name, entry: partPath(rels.get(s.rId) ?? '') })).filter((s) => entries.has(s.entry))
    const strings = optional('xl/sharedStrings.xml')
    const styles = optional('xl/styles.xml')
    return {
      sheets,
      date1904: book.date1904,
      sharedStrings: strings ? await readSharedStrings(await strings) : [],
      dateStyles: styles ? await readDateStyles(await styles) : [],
      open,
      size: (name) => entries.get(name)?.uncompressedSize ?? 0,
      close: () => zip.close(),
    }
  } catch (error) {
    zip.close()
    throw error
  }
}

function listEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>()
    zip.on('entry', (entry: yauzl.Entry) => {
      entries.set(entry.fileName.replace(/^\/+/, ''), entry)
      zip.readEntry()
    })
    zip.once('end', () => resolve(entries))
    zip.once('error', reject)
    zip.readEntry()
  })
}

/** A relationship target as a zip entry name: `worksheets/sheet1.xml` (relative to xl/) or `/xl/worksheets/sheet1.xml`. */
function partPath(target: string): string {
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`
}

type Handlers = { open?: (tag: SaxesTagPlain) => void; text?: (text: string) => void; close?: (tag: SaxesTagPlain) => void }

/** Characters fed at once: the parser is checked between pieces. */
const PIECE = 64 * 1024

/**
 * A SAX parser fed piece by piece, watched: saxes holds a text node, attribute or comment whole until it ends, so XML
 * that runs on for more than {@link XLSX_MAX_XML_RUN} characters without a tag (a 400 M-character cell in a 1.6 KB
 * file) is refused there, before the parser holds more.
 */
function watchedParser(on: Handlers): { write(chunk: string): void; close(): void } {
  const parser = new SaxesParser()
  let run = 0
  parser.on('opentag', (tag) => {
    run = 0
    on.open?.(tag)
  })
  parser.on('closetag', (tag) => {
    run = 0
    on.close?.(tag)
  })
  if (on.text) {
    const text = on.text
    parser.on('text', (t) => {
      run = 0
      text(t)
    })
  }
  return {
    write(chunk) {
      for (let at = 0; at < chunk.length; at += PIECE) {
        const piece = chunk.length <= PIECE ? chunk : chunk.slice(at, at + PIECE)
        run += piece.length
        parser.write(piece)
        if (run > XLSX_MAX_XML_RUN) {
          throw new WorkbookLimit(
            `holds more than ${XLSX_MAX_XML_RUN / 1024 / 1024} Mi characters of XML without a tag (a cell or string far past the ${XLSX_MAX_CELL_CHARS.toLocaleString('en')} characters an Excel cell holds)`,
            'If the workbook is genuine, save the sheet as CSV and import that',
          )
        }
      }
    },
    close: () => parser.close(),
  }
}

/** Feed a stream through a SAX parser; `onTag` sees each opening tag, `onText` text, `onClose` closing tags. */
export async function parseXml(stream: Readable, on: Handlers): Promise<void> {
  const parser = watchedParser(on)
  stream.setEncoding('utf8')
  for await (const chunk of stream as AsyncIterable<string>) parser.write(chunk)
  parser.close()
}

/**
 * Stream XML and yield what the handlers emit as it comes: one chunk is parsed, its items yielded, then the
 * next chunk is read — so a sheet of any size is held a chunk at a time.
 */
export async function* parseXmlRows<T>(stream: Readable, handlers: (emit: (item: T) => void) => Handlers, onChunk?: (chars: number) => void): AsyncGenerator<T> {
  const ready: T[] = []
  const parser = watchedParser(handlers((item) => ready.push(item)))
  stream.setEncoding('utf8')
  for await (const chunk of stream as AsyncIterable<string>) {
    onChunk?.(chunk.length)
    parser.write(chunk)
    yield* ready.splice(0)
  }
  parser.close()
  yield* ready.splice(0)
}

/** Drop a namespace prefix (`x:sheet` → `sheet`): some writers prefix SpreadsheetML's elements. */
export const local = (name: string) => name.slice(name.indexOf(':') + 1)

async function readWorkbook(stream: Readable): Promise<{ sheets: { name: string; rId: string }[]; date1904: boolean }> {
  const sheets: { name: string; rId: string }[] = []
  let date1904 = false
  await parseXml(stream, {
    open: (tag) => {
      const name = local(tag.name)
      if (name === 'sheet') {
        const rId = Object.entries(tag.attributes).find(([k]) => local(k) === 'id' && k.includes(':'))?.[1] ?? ''
        sheets.push({ name: String(tag.attributes.name ?? `Sheet${sheets.length + 1}`), rId: String(rId) })
      } else if (name === 'workbookPr') {
        const value = String(tag.attributes.date1904 ?? '')
        date1904 = value === '1' || value === 'true'
      }
    },
  })
  return { sheets, date1904 }
}

async function readRelationships(stream: Readable): Promise<Map<string, string>> {
  const rels = new Map<string, string>()
  await parseXml(stream, {
    open: (tag) => {
      if (local(tag.name) === 'Relationship') rels.set(String(tag.attributes.Id), String(tag.attributes.Target))
    },
  })
  return rels
}

/** Each `<si>`'s text: its `<t>`, or its rich-text runs' `<t>`s joined (phonetic guides `<rPh>` left out). */
async function readSharedStrings(stream: Readable): Promise<string[]> {
  const strings: string[] = []
  let current: string | null = null
  let inText = false
  let inPhonetic = false
  let chars = 0
  await parseXml(stream, {
    open: (tag) => {
      const name = local(tag.name)
      if (name === 'si') current = ''
      else if (name === 'rPh') inPhonetic = true
      else if (name === 't' && !inPhonetic) inText = true
    },
    text: (text) => {
      if (!inText || current === null) return
      current += text
      chars += text.length
      if (current.length > XLSX_MAX_CELL_CHARS) {
        throw new WorkbookLimit(`holds a shared string (number ${(strings.length + 1).toLocaleString('en')}) longer than ${XLSX_MAX_CELL_CHARS.toLocaleString('en')} characters, the most an Excel cell holds`, SHARED_HINT)
      }
      if (chars > XLSX_MAX_SHARED_CHARS) {
        throw new WorkbookLimit(`holds shared strings of more than ${XLSX_MAX_SHARED_CHARS / 1024 / 1024} Mi characters in all, more than import holds in memory`, SHARED_HINT)
      }
    },
    close: (tag) => {
      const name = local(tag.name)
      if (name === 't') inText = false
      else if (name === 'rPh') inPhonetic = false
      else if (name === 'si') {
        if (strings.length >= XLSX_MAX_SHARED_STRINGS) {
          throw new WorkbookLimit(`holds more than ${XLSX_MAX_SHARED_STRINGS.toLocaleString('en')} shared strings, more than import holds in memory`, SHARED_HINT)
        }
        strings.push(current ?? '')
        current = null
      }
    },
  })
  return strings
}

/**
 * Built-in number formats that show dates or times (ECMA-376 part 1, 18.8.30), and the East Asian locales' built-in
 * date formats (27–36, 50–58: Excel saves a Japanese, Chinese or Korean date with these ids and no format code).
 */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58])

/** A custom format shows a date when it has d, m, y, h or s outside quoted text, escapes and [colour] brackets. */
export function isDateFormat(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\\.|\[[^\]]*\]|_.|\*./g, '')
  return /[dmyhs]/i.test(bare) && !/^general$/i.test(bare.trim())
}

async function readDateStyles(stream: Readable): Promise<boolean[]> {
  const custom = new Map<number, string>()
  const styles: boolean[] = []
  let inCellXfs = false
  await parseXml(stream, {
    open: (tag) => {
      const name = local(tag.name)
      if (name === 'numFmt') custom.set(Number(tag.attributes.numFmtId), String(tag.attributes.formatCode ?? ''))
      else if (name === 'cellXfs') inCellXfs = true
      else if (name === 'xf' && inCellXfs) {
        const id = Number(tag.attributes.numFmtId ?? 0)
        const code = custom.get(id)
        styles.push(code !== undefined ? isDateFormat(code) : BUILTIN_DATE_FORMATS.has(id))
      }
    },
    close: (tag) => {
      if (local(tag.name) === 'cellXfs') inCellXfs = false
    },
  })
  return styles
}
