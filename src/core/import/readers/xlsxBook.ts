import type { Readable } from 'node:stream'
import { SaxesParser, type SaxesTagPlain } from 'saxes'
import yauzl from 'yauzl'

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

/** The shared strings a workbook may hold in memory, in UTF-16 code units (a zip can inflate far past its size). */
const MAX_SHARED_CHARS = 256 * 1024 * 1024

export class WorkbookError extends Error {}

export async function openWorkbook(path: string): Promise<Workbook> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false, validateEntrySizes: true }, (error, file) => (error ? reject(error) : resolve(file))),
  )
  try {
    const entries = await listEntries(zip)
    const open = (name: string) => {
      const entry = entries.get(name)
      if (!entry) return Promise.reject(new WorkbookError(`the workbook has no ${name}`))
      return new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))))
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

/** Feed a stream through a SAX parser; `onTag` sees each opening tag, `onText` text, `onClose` closing tags. */
export async function parseXml(stream: Readable, on: { open?: (tag: SaxesTagPlain) => void; text?: (text: string) => void; close?: (tag: SaxesTagPlain) => void }): Promise<void> {
  const parser = new SaxesParser()
  if (on.open) parser.on('opentag', on.open)
  if (on.text) parser.on('text', on.text)
  if (on.close) parser.on('closetag', on.close)
  stream.setEncoding('utf8')
  for await (const chunk of stream as AsyncIterable<string>) parser.write(chunk)
  parser.close()
}

/**
 * Stream XML and yield what the handlers emit as it comes: one chunk is parsed, its items yielded, then the
 * next chunk is read — so a sheet of any size is held a chunk at a time.
 */
export async function* parseXmlRows<T>(
  stream: Readable,
  handlers: (emit: (item: T) => void) => { open?: (tag: SaxesTagPlain) => void; text?: (text: string) => void; close?: (tag: SaxesTagPlain) => void },
  onChunk?: (chars: number) => void,
): AsyncGenerator<T> {
  const ready: T[] = []
  const on = handlers((item) => ready.push(item))
  const parser = new SaxesParser()
  if (on.open) parser.on('opentag', on.open)
  if (on.text) parser.on('text', on.text)
  if (on.close) parser.on('closetag', on.close)
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
      if (chars > MAX_SHARED_CHARS) throw new WorkbookError(`its shared strings hold more than ${MAX_SHARED_CHARS / 1024 / 1024}M characters`)
    },
    close: (tag) => {
      const name = local(tag.name)
      if (name === 't') inText = false
      else if (name === 'rPh') inPhonetic = false
      else if (name === 'si') {
        strings.push(current ?? '')
        current = null
      }
    },
  })
  return strings
}

/** Built-in number formats that show dates or times (ECMA-376 part 1, 18.8.30). */
const BUILTIN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47])

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
