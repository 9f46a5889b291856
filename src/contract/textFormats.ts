import type { DataType } from 'apache-arrow'
import { fieldText, jsonText } from './values'

/**
 * Rows as text: TSV (what spreadsheets paste), CSV (RFC 4180), JSON (an array of objects), JSON lines
 * and Markdown tables, all with the column names. Lossless: every value whole (see ./values.ts); a null
 * is an empty field in TSV, CSV and Markdown and `null` in JSON. Copy (renderer) and export (core) share it.
 */
export type TextFormat = 'tsv' | 'csv' | 'json' | 'jsonl' | 'markdown'

export interface TextColumn {
  name: string
  type?: DataType
}

/** A CSV field, quoted when it holds a comma, quote, CR or LF (RFC 4180). */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** A TSV field: quoted like CSV when it holds a tab, quote or line break (how spreadsheets read pasted TSV). */
export function tsvField(text: string): string {
  return /[\t"\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** A Markdown table cell: pipes escaped, line breaks as `<br>`. */
export function markdownField(text: string): string {
  return text.replaceAll('\\', '\\\\').replaceAll('|', '\\|').replace(/\r\n|\r|\n/g, '<br>')
}

function objectText(columns: readonly TextColumn[], values: readonly unknown[]): string {
  return `{${columns.map((c, i) => `${JSON.stringify(c.name)}:${jsonText(values[i], c.type)}`).join(',')}}`
}

/** What comes before the first row. */
export function textHeader(format: TextFormat, columns: readonly TextColumn[]): string {
  switch (format) {
    case 'tsv':
      return columns.map((c) => tsvField(c.name)).join('\t') + '\n'
    case 'csv':
      return columns.map((c) => csvField(c.name)).join(',') + '\n'
    case 'markdown':
      return `| ${columns.map((c) => markdownField(c.name)).join(' | ')} |\n|${columns.map(() => ' --- |').join('')}\n`
    case 'json':
      return '['
    case 'jsonl':
      return ''
  }
}

/** One row (`index` 0-based, for JSON's separators), with its line ending. */
export function textRow(format: TextFormat, columns: readonly TextColumn[], values: readonly unknown[], index: number): string {
  const field = (i: number) => fieldText(values[i], columns[i]?.type)
  switch (format) {
    case 'tsv':
      return columns.map((_, i) => tsvField(field(i) ?? '')).join('\t') + '\n'
    case 'csv':
      return columns.map((_, i) => csvField(field(i) ?? '')).join(',') + '\n'
    case 'markdown':
      return `| ${columns.map((_, i) => markdownField(field(i) ?? '')).join(' | ')} |\n`
    case 'json':
      return `${index === 0 ? '\n' : ',\n'}${objectText(columns, values)}`
    case 'jsonl':
      return objectText(columns, values) + '\n'
  }
}

/** What comes after the last row (`rows` written). */
export function textFooter(format: TextFormat, rows: number): string {
  return format === 'json' ? (rows > 0 ? '\n]\n' : ']\n') : ''
}

/** A whole small table as text (tests and single-screen copies). */
export function formatRows(format: TextFormat, columns: readonly TextColumn[], rows: readonly (readonly unknown[])[]): string {
  return textHeader(format, columns) + rows.map((row, i) => textRow(format, columns, row, i)).join('') + textFooter(format, rows.length)
}
