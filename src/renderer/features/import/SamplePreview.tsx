import type { Table } from 'apache-arrow'
import { formatCell, isNumericType } from '../../lib/formatCell'

/** The first rows of the file as they will be written: a small static table, cells formatted like the grid's. */
export function SamplePreview({ table, label }: { table: Table; label: string }) {
  const fields = table.schema.fields
  const columns = fields.map((field) => table.getChild(field.name))
  const rows = Math.min(table.numRows, 20)
  return (
    <div className="import-sample-scroll">
      <table className="import-sample" aria-label={label}>
        <thead>
          <tr>
            <th scope="col" className="import-sample-index">
              #
            </th>
            {fields.map((field) => (
              <th key={field.name} scope="col" title={String(field.type)}>
                {field.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, row) => (
            <tr key={row}>
              <td className="import-sample-index">{row + 1}</td>
              {fields.map((field, c) => {
                const cell = formatCell(columns[c]?.get(row), field.type)
                return (
                  <td key={field.name} className={`cell-${cell.kind}${isNumericType(field.type) ? ' numeric' : ''}`} title={cell.title ?? cell.text}>
                    {cell.text}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
