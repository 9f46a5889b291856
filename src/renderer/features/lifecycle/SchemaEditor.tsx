import { useId, useMemo, useState, type FormEvent } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import { castTypes, columnTypes, timeUnits, type ColumnSpec, type ColumnType, type DataFormat, type FieldInfo, type TableInfo } from '../../../contract'
import { addColumns, alterColumns, createEmptyTable, dropColumns } from './mutations'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { DataFormatChoice } from '../../components/DataFormatChoice'
import { catalogFormatsQuery } from '../../queries/catalog'
import { Spinner } from '../../components/Spinner'
import { Modal } from '../../components/Modal'
import { nameProblem } from '../../lib/names'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import './lifecycle.css'

/** A column being edited: a spec plus a stable key for React. */
interface Draft extends Omit<ColumnSpec, 'item' | 'fields'> {
  key: number
  item?: Draft
  fields?: Draft[]
}

let nextKey = 1
const draft = (type: ColumnType = 'int64', name = ''): Draft => ({ key: nextKey++, name, type, nullable: true, ...(type === 'vector' ? { dimension: 128, nullable: false } : {}) })

function toSpec(d: Draft): ColumnSpec {
  const { key: _key, item, fields, ...rest } = d
  const spec: ColumnSpec = { ...rest }
  if (d.type !== 'vector') delete spec.dimension
  if (d.type !== 'timestamp') {
    delete spec.unit
    delete spec.timezone
  }
  if (d.type === 'list' && item) spec.item = toSpec(item)
  if (d.type === 'struct' && fields) spec.fields = fields.map(toSpec)
  return spec
}

/** Problems of a column tree, in words (checked live; the core checks again). */
function columnProblems(columns: readonly Draft[], where = ''): string[] {
  const out: string[] = []
  const seen = new Set<string>()
  for (const c of columns) {
    const label = `${where}${c.name || '(unnamed)'}`
    if (c.name.trim() === '') out.push(`${where || 'A '}column has no name`)
    else if (seen.has(c.name)) out.push(`Column “${label}” appears twice`)
    seen.add(c.name)
    if (c.type === 'vector' && !(c.dimension && c.dimension >= 1 && c.dimension <= 65_536)) out.push(`Vector “${label}” needs a dimension from 1 to 65,536`)
    if (c.type === 'timestamp' && c.timezone && !/^[A-Za-z0-9_+:/-]{1,64}$/.test(c.timezone)) out.push(`Time zone of “${label}” is not a zone name`)
    if (c.type === 'struct') {
      if (!c.fields?.length) out.push(`Struct “${label}” needs a field`)
      else out.push(...columnProblems(c.fields, `${label}.`))
    }
  }
  return out
}

const TYPE_LABEL: Record<ColumnType, string> = {
  int8: 'int8', int16: 'int16', int32: 'int32', int64: 'int64',
  float16: 'float16', float32: 'float32', float64: 'float64',
  string: 'string', bool: 'bool', date: 'date', timestamp: 'timestamp', binary: 'binary',
  vector: 'vector', list: 'list of…', struct: 'struct',
}

function ColumnRow({ column, onChange, onRemove, depth }: { column: Draft; onChange(next: Draft): void; onRemove?: () => void; depth: number }) {
  const set = (patch: Partial<Draft>) => onChange({ ...column, ...patch })
  const types = depth >= 3 ? columnTypes.filter((t) => t !== 'list' && t !== 'struct') : columnTypes
  const label = column.name || 'new column'
  return (
    <div className="schema-row" role="group" aria-label={`Column ${label}`} style={{ marginLeft: depth * 16 }}>
      <div className="schema-row-main">
        <input className="text-input small mono" aria-label="Column name" placeholder="name" value={column.name} onChange={(e) => set({ name: e.target.value })} />
        <select className="text-input small" aria-label="Column type" value={column.type} onChange={(e) => {
          const type = e.target.value as ColumnType
          set({ type, ...(type === 'vector' ? { dimension: column.dimension ?? 128 } : {}), ...(type === 'list' && !column.item ? { item: draft('string', 'item') } : {}), ...(type === 'struct' && !column.fields?.length ? { fields: [draft('int64', 'x')] } : {}) })
        }}>
          {types.map((t) => (
            <option key={t} value={t}>{TYPE_LABEL[t]}</option>
          ))}
        </select>
        <div className="schema-params">
        {column.type === 'vector' && (
          <input className="text-input small narrow" aria-label="Dimension" inputMode="numeric" value={column.dimension ?? ''} onChange={(e) => set({ dimension: e.target.value === '' ? undefined : Number(e.target.value) })} />
        )}
        {column.type === 'timestamp' && (
          <>
            <select className="text-input small narrow" aria-label="Unit" value={column.unit ?? 'us'} onChange={(e) => set({ unit: e.target.value as Draft['unit'] })}>
              {timeUnits.map((u) => <option key={u} value={u}>{u}</option>)}
            </select>
            <input className="text-input small narrow" aria-label="Time zone" placeholder="no zone" value={column.timezone ?? ''} onChange={(e) => set({ timezone: e.target.value === '' ? undefined : e.target.value })} />
          </>
        )}
        </div>
        <label className="schema-null">
          <input type="checkbox" checked={column.nullable} onChange={(e) => set({ nullable: e.target.checked })} /> nullable
        </label>
        {onRemove ? (
          <button type="button" className="icon-button" aria-label={`Remove column ${label}`} title="Remove column" onClick={onRemove}>×</button>
        ) : (
          <span />
        )}
      </div>
      {column.type === 'list' && column.item && (
        <div className="schema-nested">
          <span className="muted small" style={{ marginLeft: (depth + 1) * 16 }}>element:</span>
          <ColumnRow column={column.item} depth={depth + 1} onChange={(item) => set({ item: { ...item, name: 'item' } })} />
        </div>
      )}
      {column.type === 'struct' && (
        <div className="schema-nested">
          {(column.fields ?? []).map((f, i) => (
            <ColumnRow key={f.key} column={f} depth={depth + 1}
              onChange={(next) => set({ fields: column.fields!.map((x, j) => (j === i ? next : x)) })}
              onRemove={column.fields!.length > 1 ? () => set({ fields: column.fields!.filter((_, j) => j !== i) }) : undefined} />
          ))}
          <button type="button" className="link-button small" style={{ marginLeft: (depth + 1) * 16 }} onClick={() => set({ fields: [...(column.fields ?? []), draft('int64')] })}>
            + field
          </button>
        </div>
      )}
    </div>
  )
}

/**
 * The schema editor for a new, empty table (`create_empty_table`), opened by **New table…** in a namespace's
 * context menu: the name is checked live against the name rule, each column has a type, its parameters and
 * nullability.
 */
export function NewTableDialog({ connectionId, namespace, where, onCancel, onDone }: { connectionId: string; namespace: string[]; where: string; onCancel(): void; onDone(info: TableInfo): void }) {
  const titleId = useId()
  const [name, setName] = useState('')
  const [columns, setColumns] = useState<Draft[]>(() => [draft('int64', 'id'), draft('vector', 'vector')])
  const creating = useMutation(createEmptyTable)
  const running = creating.isPending || creating.isSuccess
  const [touched, setTouched] = useState(false)
  const error = creating.error ? errorData(creating.error) : null
  /** null = the catalog's default format (the core decides). */
  const [dataFormat, setDataFormat] = useState<DataFormat | null>(null)
  const formats = useQuery(catalogFormatsQuery(connectionId)).data ?? null
  const problem = name === '' ? (touched ? 'Enter a name' : undefined) : nameProblem(name.trim())
  const problems = useMemo(() => (columns.length === 0 ? ['Add at least one column'] : columnProblems(columns)), [columns])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (nameProblem(name.trim()) || problems.length > 0) return
    creating.mutate({ connectionId, namespace, name: name.trim(), columns: columns.map(toSpec), ...(dataFormat ? { dataFormat } : {}) }, { onSuccess: onDone })
  }

  return (
    <Modal labelledBy={titleId} onClose={running ? undefined : onCancel} className="action-dialog schema-editor">
      <form className="dialog-form" onSubmit={submit} noValidate>
        <header className="dialog-header">
          <h2 id={titleId}>New table</h2>
        </header>
        <div className="dialog-body">
          <p>Create an empty table in {where}.</p>
          <div className="dialog-field">
            <label htmlFor={`${titleId}-name`} className="field-label">Table name</label>
            <input id={`${titleId}-name`} data-autofocus className="text-input mono" autoComplete="off" spellCheck={false} value={name} onChange={(e) => setName(e.target.value)} aria-invalid={!!problem} />
            {problem ? <div className="field-error">{problem}</div> : <div className="muted small">Letters, digits, _, - and . only.</div>}
          </div>
          <div className="dialog-field">
            <label htmlFor={`${titleId}-format`} className="field-label">File format</label>
            <DataFormatChoice id={`${titleId}-format`} formats={formats} value={dataFormat} onChange={setDataFormat} disabled={running} />
          </div>
          <div className="field-label">Columns</div>
          <div className="schema-rows">
            {columns.map((c, i) => (
              <ColumnRow key={c.key} column={c} depth={0} onChange={(next) => setColumns(columns.map((x, j) => (j === i ? next : x)))} onRemove={() => setColumns(columns.filter((_, j) => j !== i))} />
            ))}
          </div>
          <button type="button" className="button small schema-add" onClick={() => setColumns([...columns, draft('string')])}>
            Add column
          </button>
          {problems.length > 0 && (
            <ul className="field-error schema-problems">
              {problems.map((p) => <li key={p}>{p}</li>)}
            </ul>
          )}
          {error && <ErrorPanel error={error} title="Could not create the table" compact />}
        </div>
        <footer className="dialog-footer">
          <div className="dialog-footer-left" />
          <div className="dialog-footer-right">
            <button type="button" className="button" onClick={onCancel} disabled={running}>Cancel</button>
            <button type="submit" className="button primary" disabled={running || problems.length > 0 || !!nameProblem(name.trim())}>
              {running && <Spinner label="Working" />}
              Create table
            </button>
          </div>
        </footer>
      </form>
    </Modal>
  )
}

type Change =
  | { kind: 'add'; name: string; expression: string }
  | { kind: 'rename'; column: string; to: string }
  | { kind: 'cast'; column: string; to: (typeof castTypes)[number] }
  | { kind: 'drop'; column: string }

/**
 * Schema changes on an existing table: add (SQL expression or nulls), rename, cast within a family, drop — each
 * confirmed. Each makes the table's reads stale (its rule in queries/invalidate.ts): the open view reads it afresh.
 */
export function SchemaChanges({ tableRef, fields, writeBlock }: { tableRef: { connectionId: string; namespace: readonly string[]; name: string }; fields: readonly FieldInfo[]; writeBlock?: string }) {
  const [pending, setPending] = useState<Change | null>(null)
  const [newName, setNewName] = useState('')
  const [expression, setExpression] = useState('')
  const [nullsOf, setNullsOf] = useState<'' | 'string' | 'bigint' | 'double' | 'boolean'>('')
  const [column, setColumn] = useState(fields[0]?.name ?? '')
  const [renameTo, setRenameTo] = useState('')
  const [castTo, setCastTo] = useState<(typeof castTypes)[number]>('int64')
  const ref = { connectionId: tableRef.connectionId, namespace: [...tableRef.namespace], name: tableRef.name }
  const expr = nullsOf ? `CAST(NULL AS ${nullsOf})` : expression.trim()
  const add = useMutation(addColumns)
  const alter = useMutation(alterColumns)
  const drop = useMutation(dropColumns)
  const run = async (c: Change) => {
    if (c.kind === 'add') await add.mutateAsync({ ...ref, columns: [{ name: c.name, expression: c.expression }] })
    else if (c.kind === 'rename') await alter.mutateAsync({ ...ref, alterations: [{ path: c.column, rename: c.to }] })
    else if (c.kind === 'cast') await alter.mutateAsync({ ...ref, alterations: [{ path: c.column, dataType: c.to }] })
    else await drop.mutateAsync({ ...ref, columns: [c.column] })
  }
  const disabled = !!writeBlock
  return (
    <div className="panel-form" role="group" aria-label="Change schema">
      <div className="panel-form-title">Change schema</div>
      <div className="panel-form-row">
        <input className="text-input small mono" aria-label="New column name" placeholder="new column" value={newName} onChange={(e) => setNewName(e.target.value)} />
        <select className="text-input small" aria-label="Values" value={nullsOf} onChange={(e) => setNullsOf(e.target.value as typeof nullsOf)}>
          <option value="">= SQL expression</option>
          <option value="string">nulls (string)</option>
          <option value="bigint">nulls (int64)</option>
          <option value="double">nulls (float64)</option>
          <option value="boolean">nulls (bool)</option>
        </select>
      </div>
      {!nullsOf && <input className="text-input small mono" aria-label="SQL expression" placeholder="e.g. id * 2" value={expression} onChange={(e) => setExpression(e.target.value)} />}
      <div className="panel-form-row">
        <button type="button" className="button small" disabled={disabled || !newName.trim() || !expr} title={writeBlock} onClick={() => setPending({ kind: 'add', name: newName.trim(), expression: expr })}>
          Add column…
        </button>
      </div>
      <div className="panel-form-row">
        <select className="text-input small" aria-label="Column to change" value={column} onChange={(e) => setColumn(e.target.value)}>
          {fields.map((f) => <option key={f.name} value={f.name}>{f.name} ({f.type})</option>)}
        </select>
      </div>
      <div className="panel-form-row">
        <input className="text-input small mono" aria-label="Rename to" placeholder="new name" value={renameTo} onChange={(e) => setRenameTo(e.target.value)} />
        <button type="button" className="button small" disabled={disabled || !column || !renameTo.trim() || renameTo.trim() === column} title={writeBlock} onClick={() => setPending({ kind: 'rename', column, to: renameTo.trim() })}>
          Rename…
        </button>
      </div>
      <div className="panel-form-row">
        <select className="text-input small" aria-label="Cast to" value={castTo} onChange={(e) => setCastTo(e.target.value as typeof castTo)}>
          {castTypes.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
        <button type="button" className="button small" disabled={disabled || !column} title={writeBlock} onClick={() => setPending({ kind: 'cast', column, to: castTo })}>
          Cast…
        </button>
        <button type="button" className="button small danger" disabled={disabled || !column || fields.length < 2} title={writeBlock ?? (fields.length < 2 ? 'A table keeps at least one column' : undefined)} onClick={() => setPending({ kind: 'drop', column })}>
          Drop column…
        </button>
      </div>
      {pending && (
        <ConfirmDialog
          title={pending.kind === 'add' ? `Add column ${pending.name}` : pending.kind === 'rename' ? `Rename column ${pending.column}` : pending.kind === 'cast' ? `Cast column ${pending.column}` : `Drop column ${pending.column}`}
          confirmLabel={pending.kind === 'add' ? 'Add column' : pending.kind === 'rename' ? 'Rename' : pending.kind === 'cast' ? 'Cast' : 'Drop column'}
          destructive={pending.kind === 'drop'}
          run={() => run(pending)}
          onClose={() => setPending(null)}
        >
          <p>
            {pending.kind === 'add' && <>Add “{pending.name}” = <code>{pending.expression}</code> to every row, as a new version.</>}
            {pending.kind === 'rename' && <>Rename “{pending.column}” to “{pending.to}”, as a new version.</>}
            {pending.kind === 'cast' && <>Cast “{pending.column}” to {pending.to}. Lance allows casts within a family (a wider integer, another float size, a large string); others are refused and change nothing.</>}
            {pending.kind === 'drop' && <>Drop “{pending.column}” from the latest version. Older versions keep it until they are pruned.</>}
          </p>
        </ConfirmDialog>
      )}
    </div>
  )
}
