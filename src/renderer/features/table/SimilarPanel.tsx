import { useQuery } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { MAX_SEARCH_RESULTS, type DistanceMetric, type FieldInfo, type TableRef } from '../../../contract'
import { call } from '../../api'
import type { SimilarSearch } from '../../components/dock/registry'
import { FormDialog } from '../../components/FormDialog'
import { PanelHeader } from '../../components/PanelHeader'

/**
 * **Similar rows**, a panel of the bottom dock while the grid shows nearest neighbours (**Find similar rows**): metric,
 * k, pre- or post-filter, and whether Lance used the column's vector index (its `explainPlan` says): "approximate
 * (index)" or "exact". With an index, **Exact search** bypasses it and **Refine** re-ranks refine × k candidates
 * exactly. Closing it clears the search (the grid shows every row again).
 */
export function SimilarPanel({ tableRef, similar }: { tableRef: TableRef; similar: SimilarSearch }) {
  const { view, search, source, change: onChange, clear: onClear } = similar
  const [k, setK] = useState(String(search.k))
  const plan = useQuery({
    queryKey: ['tables/explain', tableRef.connectionId, [...tableRef.namespace], tableRef.name, view],
    queryFn: () => call('tables/explain', { ...tableRef, namespace: [...tableRef.namespace], view }),
  })
  const approximate = plan.data?.usesVectorIndex === true
  const indexNote =
    plan.data === undefined
      ? plan.isError
        ? 'index use unknown'
        : 'checking the plan…'
      : plan.data.usesVectorIndex
        ? `uses the vector index on ${search.column}: distances are approximate${search.refineFactor ? `, the best ${search.refineFactor}× k re-ranked exactly` : ''}`
        : search.bypassIndex
          ? `every row compared (the vector index is bypassed)`
          : `exact search (no vector index used on ${search.column})`
  // An index on the column (or the user's choice to bypass one) is what makes "Exact search" and "Refine" mean something.
  // The box follows the click at once; the view (and `search`) follows when the new search has run.
  const [clicked, setClicked] = useState<{ value: boolean; from: boolean } | null>(null)
  const exact = clicked !== null && clicked.from === (search.bypassIndex === true) ? clicked.value : search.bypassIndex === true
  const indexed = approximate || search.bypassIndex === true
  const [refine, setRefine] = useState(search.refineFactor === undefined ? '' : String(search.refineFactor))
  const applyRefine = () => {
    const n = refine.trim() === '' ? undefined : Number(refine)
    if (n === undefined || (Number.isSafeInteger(n) && n >= 1 && n <= 1000)) {
      if (n !== search.refineFactor) {
        const { refineFactor: _drop, ...rest } = search
        onChange(n === undefined ? rest : { ...rest, refineFactor: n })
      }
    } else setRefine(search.refineFactor === undefined ? '' : String(search.refineFactor))
  }
  const applyK = () => {
    const n = Number(k)
    if (Number.isSafeInteger(n) && n >= 1 && n <= MAX_SEARCH_RESULTS && n !== search.k) onChange({ ...search, k: n })
    else setK(String(search.k))
  }
  return (
    <section className="similar-panel side-panel" aria-label="Similar rows">
      <PanelHeader title="Similar rows" meta={`Nearest ${search.k} to ${source} · ${search.column}`} closeTitle="Close: clear the search" onClose={onClear} />
      <div className="similar-bar">
        <label>
          Metric
          <select aria-label="Metric" value={search.metric} onChange={(event) => onChange({ ...search, metric: event.target.value as DistanceMetric })}>
            <option value="l2">L2</option>
            <option value="cosine">Cosine</option>
            <option value="dot">Dot</option>
          </select>
        </label>
        <label>
          k
          <input
            aria-label="Number of neighbours"
            type="number"
            min={1}
            max={MAX_SEARCH_RESULTS}
            value={k}
            onChange={(event) => setK(event.target.value)}
            onBlur={applyK}
            onKeyDown={(event) => event.key === 'Enter' && applyK()}
          />
        </label>
        <label title="Apply the filter before the search (exact k results that match), or to its results">
          <input type="checkbox" checked={search.prefilter !== false} onChange={(event) => onChange({ ...search, prefilter: event.target.checked })} />
          Pre-filter
        </label>
        {plan.data !== undefined && (
          <span className={`chip search-mode${approximate ? ' approximate' : ''}`} data-testid="search-mode" title={approximate ? 'Lance searched the vector index: results and distances are approximate' : 'Every row was compared: exact distances'}>
            {approximate ? 'approximate (index)' : 'exact'}
          </span>
        )}
        {indexed && (
          <label title="Compare every row, bypassing the vector index: exact distances (the source row at 0), slower on a large table">
            <input
              type="checkbox"
              checked={exact}
              onChange={(event) => {
                setClicked({ value: event.target.checked, from: search.bypassIndex === true })
                const { bypassIndex: _drop, ...rest } = search
                onChange(event.target.checked ? { ...rest, bypassIndex: true } : rest)
              }}
            />
            Exact search
          </label>
        )}
        {indexed && !search.bypassIndex && (
          <label title="Fetch refine × k candidates from the index and re-rank them by their exact distance (empty: no refine)">
            Refine
            <input
              aria-label="Refine factor"
              type="number"
              min={1}
              max={1000}
              placeholder="off"
              value={refine}
              onChange={(event) => setRefine(event.target.value)}
              onBlur={applyRefine}
              onKeyDown={(event) => event.key === 'Enter' && applyRefine()}
            />
          </label>
        )}
        <span className="index-note" data-testid="index-note">
          {indexNote}
        </span>
        <button type="button" className="button" onClick={onClear}>
          Clear search
        </button>
      </div>
    </section>
  )
}

/** "Search by vector…": paste a vector (JSON array or comma-separated numbers) for one of the vector columns. */
export function VectorPasteDialog({
  columns,
  onSearch,
  onClose,
}: {
  columns: FieldInfo[]
  onSearch: (column: string, vector: number[]) => void
  onClose: () => void
}) {
  const titleId = useId()
  const [column, setColumn] = useState(columns[0]?.name ?? '')
  const [text, setText] = useState('')
  const dimension = columns.find((c) => c.name === column)?.vectorDimension ?? 0
  const parts = text
    .replace(/^\s*\[|\]\s*$/g, '')
    .split(/[\s,]+/)
    .filter((p) => p !== '')
  const values = parts.map(Number)
  const problem =
    values.length === 0 || values.some((v) => !Number.isFinite(v))
      ? 'Paste numbers: a JSON array or comma-separated values'
      : values.length !== dimension
        ? `The vector has ${values.length} values; ${column} holds ${dimension}-d vectors`
        : null
  return (
    <FormDialog titleId={titleId} title="Search by vector" action="Find similar rows" problem={problem} submit={() => onSearch(column, values)} onClose={onClose}>
      {(tried) => (
        <>
          <div className="dialog-field">
            <label htmlFor={`${titleId}-column`} className="field-label">
              Vector column
            </label>
            <select id={`${titleId}-column`} className="text-input" value={column} onChange={(event) => setColumn(event.target.value)}>
              {columns.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.name} ({c.vectorDimension}-d)
                </option>
              ))}
            </select>
          </div>
          <div className="dialog-field">
            <label htmlFor={`${titleId}-vector`} className="field-label">
              Vector
            </label>
            <textarea id={`${titleId}-vector`} data-autofocus className="text-input vector-paste" spellCheck={false} value={text} onChange={(event) => setText(event.target.value)} placeholder="[0.12, -0.4, …]" />
            {tried && problem && <div className="field-error">{problem}</div>}
          </div>
        </>
      )}
    </FormDialog>
  )
}
