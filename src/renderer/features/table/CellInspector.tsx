import { DataType, type Field, type Vector } from 'apache-arrow'
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { cellValue, fieldText, RawTimestamp, temporalText } from '../../../contract'
import type { InspectedCell } from '../../components/dock/inspection'
import { PanelHeader } from '../../components/PanelHeader'
import { Spinner } from '../../components/Spinner'
import { formatFloat } from '../../lib/formatCell'
import { hexDump, parseJsonText, sniffImage, vectorStats } from './inspectValue'
import { formatBytes, formatCount } from '../../lib/format'

const HEX_LIMIT = 4096
const TREE_CHILD_LIMIT = 1000

export type { InspectedCell }

/**
 * The cell inspector: a side panel (role complementary, "Cell inspector") with the whole value of the
 * active cell, shown by its kind. It follows the grid's selection; Escape closes it. In a table view it is a panel of
 * the right dock (InspectorPanel.tsx); a query's result grid draws it beside its rows.
 */
export function CellInspector({ cell, onClose }: { cell: InspectedCell; onClose(): void }) {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation()
      onClose()
    }
  }
  return (
    <aside className="inspector-panel side-panel" aria-label="Cell inspector" onKeyDown={onKeyDown}>
      <PanelHeader
        as="header"
        title="Inspector"
        metaTitle={`${cell.column}: ${cell.typeLabel}`}
        meta={
          <>
            Row {formatCount(cell.row + 1)} · <span className="inspector-column">{cell.column}</span>
          </>
        }
        closeTitle="Close (Esc)"
        onClose={onClose}
      />
      <div className="inspector-scroll">
        <div className="inspector-type mono">{cell.typeLabel}</div>
        {cell.vector ? (
          <ValueView vector={cell.vector} row={cell.pageRow} />
        ) : (
          <div className="muted">
            <Spinner label="Loading the value" /> Loading…
          </div>
        )}
      </div>
    </aside>
  )
}

function ValueView({ vector, row }: { vector: Vector; row: number }) {
  const type = vector.type as DataType
  const value = cellValue(vector, row)
  if (value === null || value === undefined) return <div className="inspector-null">null</div>
  const base = DataType.isDictionary(type) ? type.dictionary : type
  if (DataType.isUtf8(base) || DataType.isLargeUtf8(base)) return <TextValue text={String(value)} />
  if ((DataType.isBinary(base) || DataType.isLargeBinary(base) || DataType.isFixedSizeBinary(base)) && value instanceof Uint8Array) return <BinaryValue bytes={value} />
  if (DataType.isFixedSizeList(base) && base.children[0] && DataType.isFloat(base.children[0].type)) {
    const list = value as { toArray(): ArrayLike<number> }
    return <VectorValue values={list.toArray()} />
  }
  if (value instanceof RawTimestamp || DataType.isDate(base) || DataType.isTime(base) || DataType.isDuration(base)) return <TimeValue value={value} type={base} />
  if (DataType.isInt(base)) {
    return (
      <Facts>
        <Fact label="Value" value={<span className="mono selectable">{String(value)}</span>} />
        {typeof value === 'bigint' && <Fact label="Exact" value="yes (64-bit integer, every digit)" />}
      </Facts>
    )
  }
  if (DataType.isStruct(base) || DataType.isList(base) || DataType.isFixedSizeList(base) || DataType.isMap(base)) {
    return (
      <div className="inspector-tree" role="tree" aria-label="Value">
        <TreeNode name={null} value={value} type={base} depth={0} />
      </div>
    )
  }
  return <pre className="inspector-text selectable">{fieldText(value, base) ?? 'null'}</pre>
}

function Facts({ children }: { children: ReactNode }) {
  return <dl className="inspector-facts">{children}</dl>
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  )
}

function TextValue({ text }: { text: string }) {
  const json = useMemo(() => parseJsonText(text), [text])
  const [raw, setRaw] = useState(false)
  const characters = useMemo(() => Array.from(text).length, [text])
  return (
    <>
      <Facts>
        <Fact label="Length" value={`${formatCount(characters)} characters`} />
        {json !== null && (
          <Fact
            label="JSON"
            value={
              <button type="button" className="link-button" onClick={() => setRaw(!raw)}>
                {raw ? 'Show as a tree' : 'Show the raw text'}
              </button>
            }
          />
        )}
      </Facts>
      {json !== null && !raw ? (
        <div className="inspector-tree" role="tree" aria-label="JSON">
          <TreeNode name={null} value={json} depth={0} />
        </div>
      ) : (
        <pre className="inspector-text selectable" data-testid="inspector-text">
          {text}
        </pre>
      )}
    </>
  )
}

function BinaryValue({ bytes }: { bytes: Uint8Array }) {
  const image = sniffImage(bytes)
  const imageRef = useRef<HTMLImageElement>(null)
  useEffect(() => {
    const element = imageRef.current
    if (!image || !element) return
    // A blob: URL (the CSP allows img-src blob:, nothing remote), revoked when the value changes.
    const url = URL.createObjectURL(new Blob([bytes.slice()], { type: image }))
    element.src = url
    return () => URL.revokeObjectURL(url)
  }, [bytes, image])
  const lines = useMemo(() => hexDump(bytes, HEX_LIMIT), [bytes])
  return (
    <>
      <Facts>
        <Fact label="Size" value={`${formatCount(bytes.length)} bytes (${formatBytes(bytes.length)})`} />
        {image && <Fact label="Image" value={image.replace('image/', '').toUpperCase()} />}
      </Facts>
      {image && (
        <div className="inspector-image">
          <img ref={imageRef} alt={`${image.replace('image/', '').toUpperCase()} image, ${formatBytes(bytes.length)}`} />
        </div>
      )}
      {/* Focusable: it scrolls, and a keyboard user must be able to scroll it too. */}
      <pre className="inspector-hex selectable" aria-label="Hex dump" tabIndex={0}>
        {lines.join('\n')}
      </pre>
      {bytes.length > HEX_LIMIT && (
        <div className="muted small">
          First {formatCount(HEX_LIMIT)} of {formatCount(bytes.length)} bytes; copy the cell for all of them (base64).
        </div>
      )}
    </>
  )
}

function VectorValue({ values }: { values: ArrayLike<number> }) {
  const stats = useMemo(() => vectorStats(values), [values])
  const all = useMemo(() => Array.from(values, (v) => formatFloat(v)).join(', '), [values])
  return (
    <>
      <Facts>
        <Fact label="Dimension" value={formatCount(stats.dimension)} />
        <Fact label="Norm" value={formatFloat(stats.norm)} />
        <Fact label="Min" value={formatFloat(stats.min)} />
        <Fact label="Max" value={formatFloat(stats.max)} />
        <Fact label="Mean" value={formatFloat(stats.mean)} />
        <Fact label="NaN" value={formatCount(stats.nans)} />
        <Fact label="Zeros" value={formatCount(stats.zeros)} />
      </Facts>
      <VectorPlot values={values} min={stats.min} max={stats.max} />
      <pre className="inspector-text selectable inspector-values" tabIndex={0}>[{all}]</pre>
    </>
  )
}

/** The values as a line over their index; NaNs leave gaps. */
function VectorPlot({ values, min, max }: { values: ArrayLike<number>; min: number; max: number }) {
  const width = 320
  const height = 90
  const n = values.length
  const low = Number.isFinite(min) ? Math.min(min, 0) : 0
  const high = Number.isFinite(max) ? Math.max(max, 0) : 1
  const span = high - low || 1
  const x = (i: number) => (n <= 1 ? 0 : (i / (n - 1)) * width)
  const y = (v: number) => height - ((v - low) / span) * height
  const segments: string[] = []
  let current: string[] = []
  for (let i = 0; i < n; i += 1) {
    const v = values[i]!
    if (!Number.isFinite(v)) {
      if (current.length) segments.push(current.join(' '))
      current = []
      continue
    }
    current.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`)
  }
  if (current.length) segments.push(current.join(' '))
  return (
    <svg className="inspector-plot" viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`Plot of ${n} values from ${formatFloat(min)} to ${formatFloat(max)}`} preserveAspectRatio="none">
      <line x1={0} x2={width} y1={y(0)} y2={y(0)} className="plot-axis" />
      {segments.map((points, i) => (
        <polyline key={i} points={points} className="plot-line" />
      ))}
    </svg>
  )
}

/** A date, time, timestamp or duration: its text (the grid's and copy's rule, src/contract/values.ts) and what it means. */
function TimeValue({ value, type }: { value: unknown; type: DataType }) {
  const text = temporalText(value, type) ?? fieldText(value, type) ?? ''
  const mono = (t: string) => <span className="mono selectable">{t}</span>
  if (DataType.isDate(type)) {
    // A calendar day, not an instant: named in UTC so no zone moves it to the day before.
    const day = new Date(value instanceof Date ? value.getTime() : Number(value)).toLocaleDateString(undefined, { dateStyle: 'full', timeZone: 'UTC' })
    return (
      <Facts>
        <Fact label="Date" value={mono(text)} />
        <Fact label="Day" value={<span className="selectable">{day}</span>} />
      </Facts>
    )
  }
  if (DataType.isTime(type)) return <Facts>{<Fact label="Time of day" value={mono(text)} />}</Facts>
  if (DataType.isDuration(type)) {
    const unit = ['s', 'ms', 'µs', 'ns'][type.unit]
    return (
      <Facts>
        <Fact label="Duration" value={mono(text)} />
        <Fact label="Raw" value={mono(`${String(value)} ${unit}`)} />
      </Facts>
    )
  }
  const raw = value instanceof RawTimestamp ? value : null
  const zone = raw ? raw.timezone : DataType.isTimestamp(type) ? (type.timezone ?? null) : 'UTC'
  if (zone === null) {
    return (
      <Facts>
        <Fact label="Timestamp" value={mono(text)} />
        <Fact label="Time zone" value="none (a wall-clock time, not converted)" />
        {raw && <Fact label="Raw" value={mono(raw.value.toString())} />}
      </Facts>
    )
  }
  const ms = Date.parse(text)
  const inZone = (timeZone?: string) => {
    try {
      return new Date(ms).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'long', ...(timeZone ? { timeZone } : {}) })
    } catch {
      return null // a zone name this browser does not know
    }
  }
  const local = Intl.DateTimeFormat().resolvedOptions().timeZone
  const columnZone = zone !== 'UTC' && zone !== local ? inZone(zone) : null
  return (
    <Facts>
      <Fact label="UTC" value={mono(text)} />
      {columnZone && <Fact label={zone} value={<span className="selectable">{columnZone}</span>} />}
      <Fact label="Local" value={<span className="selectable">{`${inZone() ?? ''} (${local})`}</span>} />
      {raw && <Fact label="Raw" value={mono(raw.value.toString())} />}
    </Facts>
  )
}

interface ListLike {
  length: number
  get(index: number): unknown
}

function children(value: unknown, type: DataType | undefined): [string, unknown, DataType | undefined][] | null {
  if (value === null || value === undefined) return null
  if (value instanceof Uint8Array || value instanceof RawTimestamp) return null
  if (Array.isArray(value)) return value.map((v, i) => [String(i), v, undefined])
  if (type && DataType.isStruct(type)) return type.children.map((f: Field) => [f.name, (value as Record<string, unknown>)[f.name], f.type as DataType])
  if (typeof value === 'object' && 'get' in value && 'length' in value && typeof (value as ListLike).get === 'function') {
    const list = value as ListLike
    const child = type?.children?.[0]?.type as DataType | undefined
    return Array.from({ length: list.length }, (_, i) => [String(i), list.get(i), child])
  }
  if (typeof value === 'object') {
    const object = ((value as { toJSON?: () => unknown }).toJSON?.() ?? value) as Record<string, unknown>
    return Object.entries(object).map(([k, v]) => [k, v, undefined])
  }
  return null
}

/** One node of a foldable tree (structs, lists, maps, JSON). */
function TreeNode({ name, value, type, depth }: { name: string | null; value: unknown; type?: DataType; depth: number }) {
  const items = children(value, type)
  const label = name === null ? null : <span className="tree-key">{name}: </span>
  if (!items) {
    const text = typeof value === 'string' && !type ? JSON.stringify(value) : (fieldText(value, type) ?? 'null')
    return (
      <div className="tree-leaf" role="treeitem" aria-level={depth + 1}>
        {label}
        <span className={`tree-value${value === null ? ' inspector-null' : ''}`}>{value === null || value === undefined ? 'null' : text}</span>
      </div>
    )
  }
  const isArray = Array.isArray(value) || (type !== undefined && !DataType.isStruct(type))
  const summary = isArray ? `[${items.length}]` : `{${items.length}}`
  return (
    <details className="tree-branch" open={depth < 2} role="treeitem" aria-level={depth + 1}>
      <summary>
        {label}
        <span className="muted">{summary}</span>
      </summary>
      <div className="tree-children" role="group">
        {items.slice(0, TREE_CHILD_LIMIT).map(([key, v, t]) => (
          <TreeNode key={key} name={key} value={v} type={t} depth={depth + 1} />
        ))}
        {items.length > TREE_CHILD_LIMIT && <div className="muted small">… {formatCount(items.length - TREE_CHILD_LIMIT)} more (copy the cell for all of them)</div>}
      </div>
    </details>
  )
}
