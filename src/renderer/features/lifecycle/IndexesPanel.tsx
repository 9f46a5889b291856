import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { isLiveJob, type FieldInfo, type IndexInfo, type IndexJobInfo, type IndexSpec, type IndexType, type TableRef } from '../../../contract'
import { dropIndex, startIndex } from './mutations'
import { tableFormatQuery } from './queries'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { LegacyWarning } from './LegacyWarning'
import { formatCount } from '../../lib/format'
import { useJobList } from '../jobs'
import { PanelFrame } from './PanelFrame'
import { useLoaded } from './useLoaded'

export interface IndexesPanelProps {
  tableRef: TableRef
  fields: readonly FieldInfo[]
  writeBlock?: string
  /** Why Drop is unavailable (a server without the route), when it differs from `writeBlock`. */
  dropBlock?: string
  /** The list was read (or failed): what the server supports may have been learned. */
  onSettled?(): void
  onClose(): void
}

const ref = (t: TableRef) => ({ connectionId: t.connectionId, namespace: [...t.namespace], name: t.name })

const TYPE_LABEL: Record<IndexType, string> = {
  BTREE: 'BTree (scalar)',
  BITMAP: 'Bitmap (few distinct values)',
  LABEL_LIST: 'LabelList (list columns)',
  FTS: 'Full-text (FTS)',
  IVF_PQ: 'IVF_PQ (vector)',
  IVF_HNSW_SQ: 'IVF_HNSW_SQ (vector)',
}

/** Index types that make sense for a column, best first. */
export function typesFor(field: FieldInfo | undefined): IndexType[] {
  if (!field) return []
  if (field.vectorDimension) return ['IVF_PQ', 'IVF_HNSW_SQ']
  if (/^(Large)?List/.test(field.type)) return ['LABEL_LIST']
  if (/Utf8/.test(field.type)) return ['BTREE', 'BITMAP', 'FTS']
  if (/^(Int|Uint|Float|Date|Timestamp|Bool|Time)/.test(field.type)) return ['BTREE', 'BITMAP']
  return []
}

/** Name, type, columns, indexed and unindexed rows; create (as a cancellable job) and drop. */
export function IndexesPanel({ tableRef, fields, writeBlock, dropBlock = writeBlock, onSettled, onClose }: IndexesPanelProps) {
  const { loaded, refresh } = useLoaded('indexes', tableRef, onSettled)
  const [dropping, setDropping] = useState<IndexInfo | null>(null)
  const drop = useMutation(dropIndex)
  // Builds run as jobs (jobs panel); this panel follows the ones of its table, from the session's one list of jobs.
  const jobs = useJobList()
  const mine = useCallback(
    (job: IndexJobInfo) => job.table.connectionId === tableRef.connectionId && job.table.name === tableRef.name && job.table.namespace.join('\u0000') === tableRef.namespace.join('\u0000'),
    [tableRef],
  )
  const ofTable = useMemo(() => (jobs ?? []).filter((j): j is IndexJobInfo => j.kind === 'index' && mine(j)), [jobs, mine])
  const building = useMemo(() => ofTable.filter(isLiveJob), [ofTable])
  // A build that ends while the panel is open: its index is listed again, and a failure is said here too (the jobs
  // panel may have collapsed by then). Builds that had ended before the panel opened are not news.
  const [failed, setFailed] = useState<IndexJobInfo | null>(null)
  const ended = useRef<Set<string> | null>(null)
  useEffect(() => {
    if (!jobs) return
    const finished = ofTable.filter((j) => !isLiveJob(j))
    if (ended.current === null) {
      ended.current = new Set(finished.map((j) => j.id))
      return
    }
    for (const job of finished) {
      if (ended.current.has(job.id)) continue
      ended.current.add(job.id)
      setFailed(job.state === 'failed' ? job : null)
      refresh()
    }
  }, [jobs, ofTable, refresh])
  const shownFailure = building.length > 0 ? null : failed

  return (
    <PanelFrame title="Indexes" meta={loaded.state === 'ready' ? `${loaded.value.length} indexes` : ''} onClose={onClose}>
      {loaded.state === 'loading' && (
        <div className="panel-placeholder">
          <Spinner label="Loading indexes" /> Loading indexes…
        </div>
      )}
      {loaded.state === 'error' && <ErrorPanel error={loaded.error} title="Could not list the indexes" compact actions={[{ label: 'Try again', run: refresh }]} />}
      {loaded.state === 'ready' && (
        <>
          {loaded.value.length === 0 && <p className="panel-placeholder muted">No indexes yet.</p>}
          <ul className="version-list" aria-label="Indexes">
            {loaded.value.map((x) => (
              <li key={x.name} className="version-item" aria-label={`Index ${x.name}, ${x.type} on ${x.columns.join(', ')}`}>
                <div className="version-main">
                  <span className="version-number mono">{x.name}</span>
                  <span className="chip">{x.type}</span>
                </div>
                <div className="version-meta muted small">
                  on {x.columns.join(', ')}
                  {x.distanceType ? ` · ${x.distanceType}` : ''}
                  {x.indexedRows !== undefined ? ` · ${formatCount(x.indexedRows)} indexed` : ''}
                  {x.unindexedRows !== undefined ? ` · ${formatCount(x.unindexedRows)} unindexed` : ''}
                </div>
                <div className="version-actions">
                  <button type="button" className="button small" disabled={!!dropBlock} title={dropBlock} onClick={() => setDropping(x)} aria-label={`Drop index ${x.name}`}>
                    Drop
                  </button>
                </div>
              </li>
            ))}
          </ul>
          <CreateIndexForm
            tableRef={tableRef}
            fields={fields}
            existing={loaded.value}
            building={building}
            writeBlock={writeBlock}
          />
          {shownFailure?.error && <ErrorPanel error={shownFailure.error} title={`Could not build the index ${shownFailure.index.name}`} compact />}
        </>
      )}
      {dropping && (
        <ConfirmDialog
          title={`Drop index ${dropping.name}`}
          confirmLabel="Drop index"
          destructive
          run={async () => {
            await drop.mutateAsync({ ...ref(tableRef), index: dropping.name })
          }}
          onClose={() => setDropping(null)}
        >
          <p>
            Drop the {dropping.type} index <strong>{dropping.name}</strong> on {dropping.columns.join(', ')}? Queries on that column fall back to a full scan until it is built again.
          </p>
        </ConfirmDialog>
      )}
    </PanelFrame>
  )
}

function CreateIndexForm({ tableRef, fields, existing, building, writeBlock }: { tableRef: TableRef; fields: readonly FieldInfo[]; existing: IndexInfo[]; building: IndexJobInfo[]; writeBlock?: string }) {
  const candidates = useMemo(() => fields.filter((f) => typesFor(f).length > 0), [fields])
  const [column, setColumn] = useState(candidates[0]?.name ?? '')
  const field = candidates.find((f) => f.name === column)
  const types = typesFor(field)
  const [type, setType] = useState<IndexType>(types[0] ?? 'BTREE')
  const [name, setName] = useState('')
  const [distance, setDistance] = useState<'l2' | 'cosine' | 'dot'>('l2')
  const [partitions, setPartitions] = useState('')
  const [subVectors, setSubVectors] = useState('')
  const start = useMutation(startIndex)
  const starting = start.isPending
  const error = start.error ? errorData(start.error) : null
  /** The table is in the legacy data format: a build is confirmed first (see LegacyWarning). */
  const legacy = useQuery(tableFormatQuery(tableRef)).data?.format === 'legacy'
  const client = useQueryClient()
  const [confirmSpec, setConfirmSpec] = useState<IndexSpec | null>(null)

  const effectiveType = types.includes(type) ? type : (types[0] ?? 'BTREE')
  const indexName = name.trim() || `${column}_idx`
  const nameProblem = !/^[A-Za-z0-9_.-]{1,128}$/.test(indexName)
    ? 'Letters, digits, _, - and . only'
    : existing.some((x) => x.name === indexName)
      ? `An index named “${indexName}” exists`
      : building.some((j) => j.index.name === indexName)
        ? `“${indexName}” is being built`
        : null
  const positive = (s: string) => (s.trim() === '' ? undefined : Number(s))
  const vector = effectiveType === 'IVF_PQ' || effectiveType === 'IVF_HNSW_SQ'
  const paramProblem = [partitions, subVectors].some((s) => s.trim() !== '' && !(Number.isInteger(Number(s)) && Number(s) >= 1)) ? 'Parameters are whole numbers ≥ 1 (empty = Lance’s default)' : null

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!column || nameProblem || paramProblem) return
    const spec: IndexSpec = {
      column,
      type: effectiveType,
      name: indexName,
      ...(vector ? { distanceType: distance, numPartitions: positive(partitions), ...(effectiveType === 'IVF_PQ' ? { numSubVectors: positive(subVectors) } : {}) } : {}),
    }
    // A click right after the panel opened may come before the format is read: it is read first, so a legacy table
    // still asks (the core would refuse the build in words, but the question is what the user should meet).
    const isLegacy = legacy || (await client.fetchQuery(tableFormatQuery(tableRef)).then((f) => f.format === 'legacy', () => false))
    if (isLegacy) {
      setConfirmSpec(spec)
      return
    }
    // The build runs as a job (jobs panel: elapsed time, Cancel); the panel lists the index when it ends.
    start.mutate({ ...ref(tableRef), index: spec }, { onSuccess: () => setName('') })
  }

  if (fields.length === 0) return null // the table is reloading
  if (candidates.length === 0) return <p className="panel-placeholder muted">No column of this table can be indexed.</p>
  return (
    <form className="panel-form" onSubmit={(event) => void submit(event)} aria-label="New index">
      <div className="panel-form-title">New index</div>
      <label className="panel-field">
        <span>Column</span>
        <select className="text-input small" value={column} onChange={(e) => setColumn(e.target.value)} disabled={starting}>
          {candidates.map((f) => (
            <option key={f.name} value={f.name}>
              {f.name} ({f.type})
            </option>
          ))}
        </select>
      </label>
      <label className="panel-field">
        <span>Type</span>
        <select className="text-input small" value={effectiveType} onChange={(e) => setType(e.target.value as IndexType)} disabled={starting}>
          {types.map((t) => (
            <option key={t} value={t}>
              {TYPE_LABEL[t]}
            </option>
          ))}
        </select>
      </label>
      <label className="panel-field">
        <span>Name</span>
        <input className="text-input small mono" value={name} placeholder={`${column}_idx`} onChange={(e) => setName(e.target.value)} disabled={starting} aria-invalid={!!nameProblem} />
      </label>
      {vector && (
        <>
          <label className="panel-field">
            <span>Distance</span>
            <select className="text-input small" value={distance} onChange={(e) => setDistance(e.target.value as 'l2' | 'cosine' | 'dot')} disabled={starting}>
              <option value="l2">l2</option>
              <option value="cosine">cosine</option>
              <option value="dot">dot</option>
            </select>
          </label>
          <label className="panel-field">
            <span>Partitions</span>
            <input className="text-input small" inputMode="numeric" placeholder="default (√rows)" value={partitions} onChange={(e) => setPartitions(e.target.value)} disabled={starting} />
          </label>
          {effectiveType === 'IVF_PQ' && (
            <label className="panel-field">
              <span>Sub-vectors</span>
              <input className="text-input small" inputMode="numeric" placeholder={`default (${field?.vectorDimension ? Math.max(1, Math.floor(field.vectorDimension / 16)) : 'dim/16'})`} value={subVectors} onChange={(e) => setSubVectors(e.target.value)} disabled={starting} />
            </label>
          )}
        </>
      )}
      {(nameProblem || paramProblem) && <div className="field-error">{nameProblem ?? paramProblem}</div>}
      {building.length > 0 && (
        <div className="index-job" role="status" aria-label="Index builds">
          <Spinner label="Building index" />
          <span>
            Building {building.map((j) => j.index.name).join(', ')}… follow it in the jobs panel
          </span>
        </div>
      )}
      <div className="panel-form-row">
        <button type="submit" className="button primary small" disabled={!!writeBlock || !!nameProblem || !!paramProblem || starting} title={writeBlock}>
          Create index
        </button>
      </div>
      {writeBlock && (
        <p className="muted small" role="note">
          {writeBlock}
        </p>
      )}
      {error && <ErrorPanel error={error} title={'Could not create the index'} compact />}
      {confirmSpec && (
        <ConfirmDialog
          title="Build an index on a legacy-format table"
          confirmLabel="Build anyway"
          run={async () => {
            await start.mutateAsync({ ...ref(tableRef), index: confirmSpec, acknowledgeLegacy: true })
            setName('')
          }}
          onClose={() => setConfirmSpec(null)}
        >
          <LegacyWarning action={`building the index “${confirmSpec.name}” on it`} />
        </ConfirmDialog>
      )}
    </form>
  )
}
