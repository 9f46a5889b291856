import type { FieldInfo } from '../../../contract'
import { PanelHeader } from '../../components/PanelHeader'

/** Long Arrow types wrap after `<`, `,` and `>` rather than mid-word. */
function breakable(type: string) {
  return type.split(/(?<=[<,>])/).map((part, i) => (
    <span key={i}>
      {part}
      <wbr />
    </span>
  ))
}

function FieldRows({ fields, depth }: { fields: readonly FieldInfo[]; depth: number }) {
  return (
    <>
      {fields.map((field) => (
        <FieldRow key={`${depth}:${field.name}`} field={field} depth={depth} />
      ))}
    </>
  )
}

function FieldRow({ field, depth }: { field: FieldInfo; depth: number }) {
  return (
    <>
      <tr>
        <th scope="row" className="schema-name" style={{ paddingLeft: 10 + depth * 14 }}>
          {field.name}
        </th>
        <td className="schema-type">{breakable(field.type)}</td>
        <td className="schema-nullable">{field.nullable ? 'yes' : 'no'}</td>
        <td className="schema-dim">{field.vectorDimension ?? ''}</td>
      </tr>
      {field.children && field.children.length > 0 && !field.vectorDimension && <FieldRows fields={field.children} depth={depth + 1} />}
    </>
  )
}

/** Column, readable Arrow type, nullable, vector dimension. */
export function SchemaPanel({ fields, onClose }: { fields: readonly FieldInfo[]; onClose(): void }) {
  return (
    <aside className="schema-panel side-panel" aria-label="Schema">
      <PanelHeader title="Schema" meta={`${fields.length} columns`} onClose={onClose} />
      <div className="schema-scroll">
        <table className="schema-table">
          <thead>
            <tr>
              <th scope="col">Column</th>
              <th scope="col">Type</th>
              <th scope="col">Nullable</th>
              <th scope="col">Dim</th>
            </tr>
          </thead>
          <tbody>
            <FieldRows fields={fields} depth={0} />
          </tbody>
        </table>
      </div>
    </aside>
  )
}
