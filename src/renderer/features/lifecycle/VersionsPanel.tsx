import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { isLiveJob, type DiffJobInfo, type DiffResult, type FieldInfo, type TableRef, type VersionComparison, type VersionInfo } from '../../../contract'
import { useJobList } from '../jobs'
import { createTag, deleteTag, startDiff } from './mutations'
import { compareQuery } from './queries'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { ChevronIcon } from '../../components/Icons'
import { Spinner } from '../../components/Spinner'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { formatCount, formatTime } from '../../lib/format'
import { OPERATION_LABEL, versionEntries, type VersionEntry } from './format'
import { PanelFrame } from './PanelFrame'
import { RestoreDialog } from './RestoreDialog'
import { useLoaded } from './useLoaded'

export interface VersionsPanelProps {
  tableRef: TableRef
  /** The version open read-only, or null for the latest. */
  openVersion: number | null
  /** Writes are off (read-only connection); the reason is shown on the disabled buttons. */
  writeBlock?: string
  /** Why Restore is unavailable, when it differs from `writeBlock` (tags). */
  restoreBlock?: string
  /** The list was read (or failed): what the server supports may have been learned. */
  onSettled?(): void
  onOpen(version: number, latest: number): void
  onLatest(): void
  /** The columns of the version on screen: the key column of a comparison is picked from them. */
  fields?: readonly FieldInfo[]
  /** A comparison finished: show its rows in the table area. */
  onShowChanges?(result: DiffResult): void
  onClose(): void
}

const ref = (t: TableRef) => ({ connectionId: t.connectionId, namespace: [...t.namespace], name: t.name })

/** Every version with time, rows and what made it; open read-only, restore, tag, compare. */
export function VersionsPanel({ tableRef, openVersion, writeBlock, restoreBlock = writeBlock, onSettled, onOpen, onLatest, fields = [], onShowChanges, onClose }: VersionsPanelProps) {
  const { loaded, refresh } = useLoaded('versions', tableRef, onSettled)
  const removeTag = useMutation(deleteTag)
  const [restoring, setRestoring] = useState<VersionInfo | null>(null)
  const [deletingTag, setDeletingTag] = useState<string | null>(null)
  const [expanded, setExpanded] = useState<Set<number>>(new Set())


  const versions = loaded.state === 'ready' ? loaded.value : []
  const latest = versions.reduce((m, v) => Math.max(m, v.version), 0)

  const row = (v: VersionInfo) => {
    const isLatest = v.version === latest
    const isOpen = openVersion === v.version || (openVersion === null && isLatest)
    const what = v.operation ? OPERATION_LABEL[v.operation] : 'unknown change'
    const rows = v.rowCount !== undefined ? `${formatCount(v.rowCount)} rows` : 'rows unknown'
    return (
      <li key={v.version} className={`version-item${isOpen ? ' current' : ''}`} aria-label={`Version ${v.version}${isLatest ? ' (latest)' : ''}, ${what}, ${rows}, ${formatTime(v.timestamp)}`} aria-current={isOpen ? 'true' : undefined}>
        <div className="version-main">
          <span className="version-number">v{v.version}</span>
          <span className="version-op">{what}</span>
          {isLatest && <span className="chip">latest</span>}
          {v.tags.map((tag) => (
            <span key={tag} className="chip tag">
              <button type="button" className="chip-button" title={`Open version ${v.version} (tag ${tag})`} onClick={() => (isLatest ? onLatest() : onOpen(v.version, latest))}>
                {tag}
              </button>
              <button type="button" className="chip-button" aria-label={`Delete tag ${tag}`} title={writeBlock ?? `Delete tag ${tag}`} disabled={!!writeBlock} onClick={() => setDeletingTag(tag)}>
                ×
              </button>
            </span>
          ))}
        </div>
        <div className="version-meta muted small">
          {rows} · {formatTime(v.timestamp)}
        </div>
        <div className="version-actions">
          {!isOpen && (
            <button type="button" className="button small" onClick={() => (isLatest ? onLatest() : onOpen(v.version, latest))}>
              {isLatest ? 'Back to latest' : 'Open read-only'}
            </button>
          )}
          {!isLatest && (
            <button type="button" className="button small" disabled={!!restoreBlock} title={restoreBlock} onClick={() => setRestoring(v)}>
              Restore this version
            </button>
          )}
        </div>
      </li>
    )
  }

  const entry = (e: VersionEntry) => {
    if (e.kind === 'version') return row(e.version)
    const first = e.versions[e.versions.length - 1]!
    const last = e.versions[0]!
    const open = expanded.has(first.version)
    const added = (last.rowCount ?? 0) - ((first.rowCount ?? 0) - 0)
    return (
      <li key={`run-${first.version}`} className="version-run" aria-label={`Versions ${first.version}–${last.version}, ${e.versions.length} appends`}>
        <button
          type="button"
          className="version-run-toggle"
          aria-expanded={open}
          onClick={() => setExpanded((s) => {
            const n = new Set(s)
            if (open) n.delete(first.version)
            else n.add(first.version)
            return n
          })}
        >
          <ChevronIcon expanded={open} />
          <span className="version-number">
            v{first.version}–v{last.version}
          </span>
          <span className="version-op">{e.versions.length} appends</span>
          <span className="muted small">{last.rowCount !== undefined ? `→ ${formatCount(last.rowCount)} rows (+${formatCount(Math.max(0, added))} after v${first.version})` : ''}</span>
        </button>
        {open && <ul className="version-list nested">{e.versions.map(row)}</ul>}
      </li>
    )
  }

  return (
    <PanelFrame title="Versions" meta={loaded.state === 'ready' ? `${versions.length} versions` : ''} onClose={onClose}>
      {loaded.state === 'loading' && (
        <div className="panel-placeholder">
          <Spinner label="Loading versions" /> Loading versions…
        </div>
      )}
      {loaded.state === 'error' && <ErrorPanel error={loaded.error} title="Could not list the versions" compact actions={[{ label: 'Try again', run: refresh }]} />}
      {loaded.state === 'ready' && (
        <>
          <ul className="version-list" aria-label="Versions">
            {versionEntries(versions).map(entry)}
          </ul>
          <TagForm key={`tag-${openVersion ?? 'latest'}`} tableRef={tableRef} versions={versions} defaultVersion={openVersion ?? latest} writeBlock={writeBlock} />
          <CompareForm key={`compare-${openVersion ?? 'latest'}`} tableRef={tableRef} versions={versions} fields={fields} defaultFrom={openVersion ?? Math.max(1, latest - 1)} defaultTo={latest} onShowChanges={onShowChanges} />
        </>
      )}
      {restoring && (
        <RestoreDialog
          tableRef={tableRef}
          target={restoring}
          latest={latest}
          onRestored={onLatest}
          onClose={() => setRestoring(null)}
        />
      )}
      {deletingTag && (
        <ConfirmDialog
          title={`Delete tag ${deletingTag}`}
          confirmLabel="Delete tag"
          destructive
          run={async () => {
            await removeTag.mutateAsync({ ...ref(tableRef), tag: deletingTag })
          }}
          onClose={() => setDeletingTag(null)}
        >
          <p>Delete the tag “{deletingTag}”? The version it points at stays.</p>
        </ConfirmDialog>
      )}
    </PanelFrame>
  )
}

function TagForm({ tableRef, versions, defaultVersion, writeBlock }: { tableRef: TableRef; versions: VersionInfo[]; defaultVersion: number; writeBlock?: string }) {
  const [tag, setTag] = useState('')
  const [version, setVersion] = useState(defaultVersion)
  // The versions list shows the new tag: the write's rule (queries/invalidate.ts) makes it stale.
  const creating = useMutation(createTag)
  const error = creating.error ? errorData(creating.error) : null
  const running = creating.isPending
  const problem = tag === '' ? null : /^[A-Za-z0-9_.-]{1,128}$/.test(tag) ? null : 'Letters, digits, _, - and . only'
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!tag || problem) return
    creating.mutate({ ...ref(tableRef), tag, version }, { onSuccess: () => setTag('') })
  }
  return (
    <form className="panel-form" onSubmit={submit} aria-label="Tag a version">
      <div className="panel-form-title">Tag a version</div>
      <div className="panel-form-row">
        <select className="text-input small" aria-label="Version to tag" value={version} onChange={(e) => setVersion(Number(e.target.value))}>
          {[...versions].reverse().map((v) => (
            <option key={v.version} value={v.version}>
              v{v.version}
            </option>
          ))}
        </select>
        <input className="text-input small mono" aria-label="Tag name" placeholder="tag name" value={tag} onChange={(e) => setTag(e.target.value)} aria-invalid={!!problem} />
        <button type="submit" className="button small" disabled={!!writeBlock || !tag || !!problem || running} title={writeBlock}>
          Create tag
        </button>
      </div>
      {problem && <div className="field-error">{problem}</div>}
      {error && <ErrorPanel error={error} title="Could not create the tag" compact />}
    </form>
  )
}

/** Columns rows can be matched by (integers and text), a unique-looking one (`id`, `…_id`, `key`, `uuid`) first. */
export function keyCandidates(fields: readonly FieldInfo[]): string[] {
  const usable = fields.filter((f) => /^(u?int(8|16|32|64)?|large_?utf8|utf8)$/i.test(f.type)).map((f) => f.name)
  const score = (name: string) => (/^(id|key|uuid|pk)$/i.test(name) ? 0 : /(_id|id|_key|uuid)$/i.test(name) ? 1 : 2)
  return [...usable].sort((a, b) => score(a) - score(b))
}

function CompareForm({ tableRef, versions, fields, defaultFrom, defaultTo, onShowChanges }: { tableRef: TableRef; versions: VersionInfo[]; fields: readonly FieldInfo[]; defaultFrom: number; defaultTo: number; onShowChanges?(result: DiffResult): void }) {
  const [from, setFrom] = useState(defaultFrom)
  const [to, setTo] = useState(defaultTo)
  const candidates = keyCandidates(fields)
  const [key, setKey] = useState(candidates[0] ?? '')
  const [result, setResult] = useState<VersionComparison | null>(null)
  const client = useQueryClient()
  // Compare is a read (through the cache, compareQuery) the user asks for: the action holds its busy flag and error;
  // the last answer stays shown while the next one is asked.
  const comparing = useMutation({ mutationFn: ({ from, to }: { from: number; to: number }) => client.fetchQuery(compareQuery(tableRef, from, to)), onSuccess: (answer: VersionComparison) => setResult(answer) })
  const error = comparing.error ? errorData(comparing.error) : null
  const running = comparing.isPending
  // The comparison of rows runs as a job (progress and Cancel in the jobs dock); its record comes from the job list.
  const jobs = useJobList()
  const [diffJobId, setDiffJobId] = useState<string | null>(null)
  const diffJob = (jobs ?? []).find((j): j is DiffJobInfo => j.id === diffJobId && j.kind === 'diff')
  const diffStart = useMutation(startDiff)
  const diffError = diffStart.error ? errorData(diffStart.error) : null
  const shown = useRef<string | null>(null)
  useEffect(() => {
    if (!diffJob || diffJob.state !== 'done' || !diffJob.result || shown.current === diffJob.id) return
    shown.current = diffJob.id
    onShowChanges?.(diffJob.result)
  }, [diffJob, onShowChanges])
  // The started job joins the job list (its rule); this form follows it by id.
  const showChanges = () => diffStart.mutate({ ...ref(tableRef), from, to, key }, { onSuccess: (job) => setDiffJobId(job.id) })
  const diffRunning = !!diffJob && isLiveJob(diffJob)
  const compare = (event: FormEvent) => {
    event.preventDefault()
    setDiffJobId(null)
    comparing.mutate({ from, to })
  }
  const options = [...versions].reverse().map((v) => (
    <option key={v.version} value={v.version}>
      v{v.version}
    </option>
  ))
  return (
    <form className="panel-form" onSubmit={compare} aria-label="Compare versions">
      <div className="panel-form-title">Compare versions</div>
      <div className="panel-form-row">
        <select className="text-input small" aria-label="From version" value={from} onChange={(e) => setFrom(Number(e.target.value))}>
          {options}
        </select>
        <span className="muted">→</span>
        <select className="text-input small" aria-label="To version" value={to} onChange={(e) => setTo(Number(e.target.value))}>
          {options}
        </select>
        <button type="submit" className="button small" disabled={running || from === to}>
          Compare…
        </button>
      </div>
      {error && <ErrorPanel error={error} title="Could not compare" compact />}
      {result && (
        <div className="panel-form-row">
          <label className="muted small" htmlFor={`diff-key-${tableRef.name}`}>
            Match rows by
          </label>
          <select id={`diff-key-${tableRef.name}`} className="text-input small" aria-label="Key column" value={key} onChange={(e) => setKey(e.target.value)}>
            {candidates.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
          <button type="button" className="button small" disabled={!key || diffRunning || from === to} title={key ? undefined : 'The table has no integer or text column to match rows by'} onClick={showChanges}>
            Show changes
          </button>
          {diffRunning && diffJob && (
            <span className="muted small" role="status">
              {diffJob.state === 'queued' ? (
                `Queued: ${diffJob.queueReason ?? 'waiting for a free slot'}…`
              ) : (
                <>
                  Comparing… {formatCount(diffJob.progress.rows)}
                  {diffJob.progress.totalRows != null ? ` of ${formatCount(diffJob.progress.totalRows)}` : ''} rows
                </>
              )}
            </span>
          )}
        </div>
      )}
      {diffError && <ErrorPanel error={diffError} title="Could not show the changes" compact />}
      {diffJob?.state === 'failed' && diffJob.error && <ErrorPanel error={diffJob.error} title="Could not show the changes" compact />}
      {diffJob?.state === 'cancelled' && <div className="muted small">The comparison was cancelled.</div>}
      {result && (
        <div className="compare-result" role="region" aria-label="Comparison">
          <div>
            Rows: v{result.from.version} {formatCount(result.from.rowCount)} → v{result.to.version} {formatCount(result.to.rowCount)} ({result.to.rowCount - result.from.rowCount >= 0 ? '+' : ''}
            {formatCount(result.to.rowCount - result.from.rowCount)})
          </div>
          {result.added.length + result.removed.length + result.changed.length === 0 && <div className="muted">Same schema.</div>}
          {result.added.map((f) => (
            <div key={`a${f.name}`} className="diff-added">
              + {f.name} <span className="mono muted">{f.type}</span>
            </div>
          ))}
          {result.removed.map((f) => (
            <div key={`r${f.name}`} className="diff-removed">
              − {f.name} <span className="mono muted">{f.type}</span>
            </div>
          ))}
          {result.changed.map((c) => (
            <div key={`c${c.name}`} className="diff-changed">
              ~ {c.name} <span className="mono muted">{c.from} → {c.to}</span>
            </div>
          ))}
        </div>
      )}
    </form>
  )
}
