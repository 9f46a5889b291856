import { dataFormatOption, dataFormatReaders, dataFormats, type CatalogDataFormats, type DataFormat } from '../../contract'

/** Why the default is what it is, in words. */
function defaultNote(formats: CatalogDataFormats): string {
  if (formats.unknownReason) return `The default is ${formats.default} (${formats.unknownReason}).`
  if (formats.tablesRead === 0) return `This catalog has no tables yet: the default is ${formats.default}, lancedb's own.`
  const n = formats.counts[formats.default] ?? 0
  const of = formats.limited ? `of the first ${formats.tablesRead} tables` : `of ${formats.tablesRead} table${formats.tablesRead === 1 ? '' : 's'}`
  const others = Object.entries(formats.counts).filter(([f]) => f !== formats.default)
  return `The default follows this catalog: ${n} ${of} are ${formats.default}${others.length ? ` (${others.map(([f, c]) => `${c} ${f}`).join(', ')})` : ''}.`
}

/**
 * The data file format of a new table, with the LanceDB releases that read each (older releases cannot read newer
 * formats). `value` null = the catalog's default, which the select shows once known. The label is the caller's
 * (`<label htmlFor={id}>`); `formats` is the catalog's (`catalogFormatsQuery`), null while it loads or when it cannot be read.
 */
export function DataFormatChoice({ id, formats, value, onChange, disabled }: { id: string; formats: CatalogDataFormats | null; value: DataFormat | null; onChange(format: DataFormat): void; disabled?: boolean }) {
  const shown = value ?? formats?.default ?? null
  if (formats && !formats.choosable) {
    return (
      <div id={id} className="muted small data-format-choice">
        Chosen by the catalog: {formats.unknownReason}.
      </div>
    )
  }
  return (
    <div className="data-format-choice">
      <select id={id} className="text-input small" value={shown ?? ''} onChange={(e) => onChange(e.target.value as DataFormat)} disabled={disabled} aria-describedby={`${id}-help`}>
        {shown === null && <option value="">The catalog’s default…</option>}
        {dataFormats.map((f) => (
          <option key={f} value={f}>
            {dataFormatOption(f)}
            {formats?.default === f ? ' (this catalog’s)' : ''}
          </option>
        ))}
      </select>
      <div id={`${id}-help`} className="muted small">
        {shown && dataFormatReaders(shown)} {formats && defaultNote(formats)}
      </div>
    </div>
  )
}
