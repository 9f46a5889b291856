import { useMutation, useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { RestorePreview, TableRef, VersionInfo } from '../../../contract'
import { call } from '../../api'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { Spinner } from '../../components/Spinner'
import { keys } from '../../queries/keys'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { formatCount } from '../../lib/format'
import { restoreVersion } from './mutations'

const ref = (t: TableRef) => ({ connectionId: t.connectionId, namespace: [...t.namespace], name: t.name })
const list = (names: string[]) => names.map((n) => `“${n}”`).join(', ')

/**
 * The confirmation of a restore, telling the truth about the indexes: Lance writes the chosen version's manifest
 * as the new latest one, so that version's indexes come back and the ones made since are gone. It lists both
 * (`versions/restorePreview`) and offers to rebuild each lost index on the restored version, as an index job.
 */
export function RestoreDialog({ tableRef, target, latest, onRestored, onClose }: { tableRef: TableRef; target: VersionInfo; latest: number; onRestored(): void; onClose(): void }) {
  // Asked each time the dialog opens (an index build may have started or ended since), never kept.
  const previewed = useQuery({
    queryKey: [...keys.table(tableRef), 'restorePreview', target.version],
    queryFn: () => call('versions/restorePreview', { ...ref(tableRef), version: target.version }),
    staleTime: 0,
    gcTime: 0,
  })
  // The restore rewrites the table: its rule (queries/invalidate.ts) drops what was read of it, the versions list too.
  const restore = useMutation(restoreVersion)
  const preview: RestorePreview | null = previewed.data ?? null
  const error = previewed.error ? errorData(previewed.error) : null
  // Every lost index that can be rebuilt is ticked until the user changes that.
  const [chosen, setRebuild] = useState<Set<string> | null>(null)
  const rebuild = chosen ?? new Set(preview?.lost.filter((x) => x.rebuild).map((x) => x.name) ?? [])

  const rows = target.rowCount !== undefined ? `${formatCount(target.rowCount)} rows` : 'row count unknown'
  const busy = preview !== null && preview.indexBuildsRunning.length > 0
  const toggle = (name: string, on: boolean) =>
    setRebuild(() => {
      const n = new Set(rebuild)
      if (on) n.add(name)
      else n.delete(name)
      return n
    })
  return (
    <ConfirmDialog
      title={`Restore version ${target.version}`}
      confirmLabel="Restore"
      disabled={(preview === null && error === null) || busy}
      run={async () => {
        await restore.mutateAsync({ ...ref(tableRef), version: target.version, rebuildIndexes: [...rebuild] })
        onRestored()
      }}
      onClose={onClose}
    >
      <p>
        Make version {target.version} ({rows}) the latest again? It is written as a new version {latest + 1}; versions 1–{latest} stay and can still be opened or
        restored.
      </p>
      {preview === null && !error && (
        <p className="muted">
          <Spinner label="Checking the indexes" /> Checking which indexes version {target.version} has…
        </p>
      )}
      {error && (
        <>
          <ErrorPanel error={error} title="Could not check the indexes" compact />
          <p>The restored version will have the indexes version {target.version} had; indexes made since then will be gone (rebuild them in the Indexes panel).</p>
        </>
      )}
      {preview && (
        <div className="restore-indexes" role="group" aria-label="Indexes after the restore">
          {busy && (
            <p className="field-error" role="alert">
              Index {list(preview.indexBuildsRunning)} {preview.indexBuildsRunning.length === 1 ? 'is' : 'are'} being built on this table: restore when the build has ended (the Jobs panel shows it).
            </p>
          )}
          {preview.lost.length === 0 && preview.kept.length === 0 && preview.back.length === 0 && <p className="muted">Neither version has indexes.</p>}
          {preview.kept.length > 0 && <p>Kept: {list(preview.kept)} (version {target.version} has {preview.kept.length === 1 ? 'it' : 'them'} too).</p>}
          {preview.back.length > 0 && <p>Back: {list(preview.back)} (version {target.version} had {preview.back.length === 1 ? 'it' : 'them'}; dropped since).</p>}
          {preview.lost.length > 0 && (
            <>
              <p className="restore-lost">
                <strong>
                  Gone after the restore: {list(preview.lost.map((x) => x.name))}
                </strong>{' '}
                — made after version {target.version}, so the restored version does not have {preview.lost.length === 1 ? 'it' : 'them'}
                {preview.lost.some((x) => x.type === 'FTS' || x.type === 'Inverted') ? ' (without its full-text index the table has no full-text search)' : ''}.
              </p>
              <ul className="restore-rebuild-list">
                {preview.lost.map((x) => (
                  <li key={x.name}>
                    {x.rebuild ? (
                      <label>
                        <input type="checkbox" checked={rebuild.has(x.name)} onChange={(e) => toggle(x.name, e.target.checked)} /> Rebuild {x.name} ({x.type} on {x.columns.join(', ')}) on the restored version
                      </label>
                    ) : (
                      <span>
                        {x.name} ({x.type} on {x.columns.join(', ')}) cannot be rebuilt: {x.reason}
                      </span>
                    )}
                  </li>
                ))}
              </ul>
              {preview.lost.some((x) => x.rebuild) && (
                <p className="muted small">Each rebuild is an index job in the Jobs panel, one after another; the restored rows can be read meanwhile. A rebuild uses the settings Lance recorded (type, column, metric, tokenizer); the number of partitions is Lance's default.</p>
              )}
            </>
          )}
        </div>
      )}
    </ConfirmDialog>
  )
}
