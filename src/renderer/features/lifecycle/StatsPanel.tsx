import { useMemo, useState } from 'react'
import { useMutation, useQuery } from '@tanstack/react-query'
import type { TableRef } from '../../../contract'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { formatBytes, formatCount } from '../../lib/format'
import { PanelFrame } from './PanelFrame'
import { SchemaChanges } from './SchemaEditor'
import type { FieldInfo, TableStats } from '../../../contract'
import { useLoaded } from './useLoaded'
import { LegacyWarning } from './LegacyWarning'
import { optimizeTable } from './mutations'
import { optimizePreviewQuery } from './queries'

const ref = (t: TableRef) => ({ connectionId: t.connectionId, namespace: [...t.namespace], name: t.name })

/**
 * The rows marked deleted, in the user's words: those deletes removed and the old copies updates rewrote (Lance
 * writes an updated row anew and marks the old copy deleted), each named; all stay on disk until Optimize.
 */
function MarkedDeleted({ stats: s }: { stats: TableStats }) {
  if (s.deletedRows === undefined) return <div><dt>Rows marked deleted</dt><dd>unknown</dd></div>
  if (s.deletedByDeletes === undefined || s.rewrittenByUpdates === undefined) return <div><dt>Rows marked deleted</dt><dd>{formatCount(s.deletedRows)}</dd></div>
  const about = s.deletedSplitEstimated ? '≈ ' : ''
  const older = s.deletedRows - s.deletedByDeletes - s.rewrittenByUpdates
  return (
    <>
      <div><dt>Rows removed by deletes</dt><dd>{about}{formatCount(s.deletedByDeletes)}</dd></div>
      <div><dt>Old copies of updated rows</dt><dd>{about}{formatCount(s.rewrittenByUpdates)}</dd></div>
      {older > 0 && <div><dt>Marked by versions no longer kept</dt><dd>{about}{formatCount(older)}</dd></div>}
    </>
  )
}

/** Where the marked rows are (on disk until Optimize), and whether their split is estimated. */
function MarkedNote({ stats: s }: { stats: TableStats }) {
  if (!s.deletedRows) return null
  return (
    <p className="muted small stats-note" role="note">
      {formatCount(s.deletedRows)} marked {s.deletedRows === 1 ? 'row stays' : 'rows stay'} on disk until Optimize purges {s.deletedRows === 1 ? 'it' : 'them'}
      {s.deletedSplitEstimated ? ' (the split is estimated: a compaction purged part of them, or versions between were removed)' : ''}.
    </p>
  )
}

/** Rows, fragments, rows marked deleted (by deletes, by updates), size on disk; optimize with a preview and a confirmation. */
export function StatsPanel({ tableRef, fields, writeBlock, optimizeBlock = writeBlock, onSettled, onClose }: { tableRef: TableRef; fields: readonly FieldInfo[]; writeBlock?: string; optimizeBlock?: string; onSettled?(): void; onClose(): void }) {
  const { loaded, refresh } = useLoaded('stats', tableRef, onSettled)
  const [prune, setPrune] = useState(false)
  const [days, setDays] = useState('7')
  const [confirming, setConfirming] = useState(false)
  // Optimize rewrites the table: its rule (queries/invalidate.ts) drops what was read of it, the stats included.
  const optimize = useMutation(optimizeTable)
  const result = optimize.data ?? null

  const daysValue = Number(days)
  const daysProblem = prune && !(days.trim() !== '' && Number.isFinite(daysValue) && daysValue >= 0) ? 'Days must be a number ≥ 0' : null
  const options = prune && !daysProblem ? { pruneOlderThanDays: daysValue } : {}

  // The preview is a query asked on each click (Optimize…), for the options then set; its answer opens the
  // confirmation, its error shows below the button (not while it is asked again).
  const previewQuery = useQuery({ ...optimizePreviewQuery(tableRef, options), enabled: false })
  const preview = previewQuery.data ?? null
  const previewFailure = previewQuery.isFetching ? null : previewQuery.error
  const previewError = useMemo(() => (previewFailure ? errorData(previewFailure) : null), [previewFailure])
  const showPreview = async () => {
    const asked = await previewQuery.refetch()
    if (asked.isSuccess) setConfirming(true)
  }

  const s = loaded.state === 'ready' ? loaded.value : null
  return (
    <PanelFrame title="Stats" meta={s ? `version ${s.version}` : ''} onClose={onClose}>
      {loaded.state === 'loading' && (
        <div className="panel-placeholder">
          <Spinner label="Loading stats" /> Loading stats…
        </div>
      )}
      {loaded.state === 'error' && <ErrorPanel error={loaded.error} title="Could not read the stats" compact actions={[{ label: 'Try again', run: refresh }]} />}
      {s && (
        <dl className="stats-list" aria-label="Table stats">
          <div><dt>Rows</dt><dd>{formatCount(s.rows)}</dd></div>
          <div><dt>Fragments</dt><dd>{formatCount(s.fragments)}{s.smallFragments > 0 ? ` (${formatCount(s.smallFragments)} small)` : ''}</dd></div>
          <MarkedDeleted stats={s} />
          <div><dt>Size on disk</dt><dd>{formatBytes(s.bytes)}</dd></div>
          <div><dt>Indexes</dt><dd>{formatCount(s.indexes)}</dd></div>
          <div><dt>Versions</dt><dd>{formatCount(s.versions)}</dd></div>
        </dl>
      )}
      {s && <MarkedNote stats={s} />}
      {s && (
        <div className="panel-form" role="group" aria-label="Optimize">
          <div className="panel-form-title">Optimize</div>
          <p className="muted small">Compacts small files, purges deleted rows and brings indexes up to date.</p>
          <label className="panel-check">
            <input type="checkbox" checked={prune} onChange={(e) => setPrune(e.target.checked)} /> Remove versions older than
            <input className="text-input small days" aria-label="Days" value={days} onChange={(e) => setDays(e.target.value)} disabled={!prune} /> days
          </label>
          {daysProblem && <div className="field-error">{daysProblem}</div>}
          <div className="panel-form-row">
            <button type="button" className="button small" disabled={!!optimizeBlock || !!daysProblem} title={optimizeBlock} onClick={() => void showPreview()}>
              Optimize…
            </button>
          </div>
          {optimizeBlock && optimizeBlock !== writeBlock && (
            <p className="muted small" role="note">
              {optimizeBlock}
            </p>
          )}
          {previewError && <ErrorPanel error={previewError} title="Could not preview" compact />}
          {result && (
            <div className="muted small" role="status">
              Done: {result.fragmentsRemoved} fragments → {result.fragmentsAdded}; {result.versionsRemoved} versions removed ({formatBytes(result.bytesRemoved)}); now version {result.version}.
            </div>
          )}
        </div>
      )}
      {s && fields.length > 0 && (
        <SchemaChanges tableRef={tableRef} fields={fields} writeBlock={writeBlock} />
      )}
      {confirming && preview && (
        <ConfirmDialog
          title="Optimize table"
          confirmLabel={preview.dataFormat === 'legacy' ? 'Optimize anyway' : 'Optimize'}
          disabled={(preview.indexBuildsRunning?.length ?? 0) > 0}
          run={async () => {
            // The user read the legacy warning above before confirming: say so, or the core refuses.
            await optimize.mutateAsync({ ...ref(tableRef), ...options, ...(preview.dataFormat === 'legacy' ? { acknowledgeLegacy: true } : {}) })
          }}
          onClose={() => setConfirming(false)}
        >
          {(preview.indexBuildsRunning?.length ?? 0) > 0 && (
            <p className="field-error" role="alert">
              Index {preview.indexBuildsRunning!.map((n) => `“${n}”`).join(', ')} {preview.indexBuildsRunning!.length === 1 ? 'is' : 'are'} being built on this table: Optimize can run when the build has
              ended (the Jobs panel shows it). Writes to one table run one at a time.
            </p>
          )}
          {preview.dataFormat === 'legacy' && <LegacyWarning action="optimizing it" />}
          <ul className="preview-list">
            <li>{preview.fragmentsToCompact > 0 ? `Compact ${preview.fragmentsToCompact} small fragments` : 'Nothing to compact'}{preview.deletedRowsToPurge > 0 ? `, purging ${formatCount(preview.deletedRowsToPurge)} deleted rows` : ''}.</li>
            <li>
              {preview.indexesToUpdate.length > 0
                ? `Update ${preview.indexesToUpdate.join(', ')}`
                : (preview.indexBuildsRunning?.length ?? 0) > 0
                  ? 'The indexes being built are not counted yet'
                  : 'Indexes are up to date'}
              .
            </li>
            <li>
              {prune
                ? preview.versionsToRemove.length > 0
                  ? `Remove ${preview.versionsToRemove.length} old versions (${preview.versionsToRemove.slice(0, 8).map((v) => `v${v}`).join(', ')}${preview.versionsToRemove.length > 8 ? ', …' : ''}); tagged versions and the latest stay. They can no longer be opened or restored.`
                  : 'No version is old enough to remove.'
                : 'Keep every version.'}
            </li>
          </ul>
        </ConfirmDialog>
      )}
    </PanelFrame>
  )
}
