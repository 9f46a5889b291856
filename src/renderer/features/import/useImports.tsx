import { lazy, Suspense, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ChangeEvent } from 'react'
import type { ConnectionInfo, ImportJobInfo, TableRef } from '../../../contract'
import { call, hostKind, onHostEvent, pathForDroppedFile } from '../../api'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import type { AppErrorData } from '../../../contract'
import { pendingKey, type ImportTarget, type PendingFile } from './dropped'
import { ImportsIndicator } from './ImportsIndicator'
import { upsertJob } from './jobList'
import { JobsPanel, type JobsPanelProps } from './JobsPanel'
import { useJobsPanelOpen } from './useJobsPanelOpen'

// Loaded on first use: the first paint does not need the sheet's code, so the cold open is faster.
const ImportSheet = lazy(() => import('./ImportSheet').then((m) => ({ default: m.ImportSheet })))

export interface UseImportsOptions {
  connections: readonly ConnectionInfo[]
  /** Where files go when they were not dropped on a namespace: the selection. */
  defaultTarget: ImportTarget | null
  /** A job finished: select its table (expand and refresh its namespace, open it). */
  onImported(ref: TableRef): void
  /** Other jobs for the same panel (exports). */
  extraJobs?: JobsPanelProps['extra']
}

/**
 * Import as the window sees it: files waiting for their sheet (one sheet at a time, in drop
 * order), the jobs from `jobs/list` kept current by `jobs/progress` events, and the hidden file
 * input the harness uses for "Import…" (a browser has no native file dialog to ask for paths).
 */
export function useImports({ connections, defaultTarget, onImported, extraJobs }: UseImportsOptions) {
  const [pending, setPending] = useState<PendingFile[]>([])
  const [jobs, setJobs] = useState<ImportJobInfo[]>([])
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set())
  const [pickError, setPickError] = useState<AppErrorData | null>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const targetRef = useRef(defaultTarget)
  const importedRef = useRef(onImported)
  useLayoutEffect(() => {
    targetRef.current = defaultTarget
    importedRef.current = onImported
  })

  const upsert = useCallback((job: ImportJobInfo, fromEvent: boolean) => {
    setJobs((previous) => upsertJob(previous, job, fromEvent))
  }, [])

  useEffect(() => {
    const seenDone = new Set<string>()
    const off = onHostEvent('jobs/progress', (job) => {
      upsert(job, true)
      if (job.state === 'done' && !seenDone.has(job.id)) {
        seenDone.add(job.id)
        importedRef.current(job.target)
      }
    })
    call('jobs/list', {})
      .then((list) => {
        for (const job of list) {
          if (job.state === 'done') seenDone.add(job.id)
          upsert(job, false)
        }
      })
      .catch(() => undefined)
    return off
  }, [upsert])

  /** Queue sheets for files (dropped or picked), into `target` or the selection. */
  const addFiles = useCallback((files: readonly File[], target?: ImportTarget) => {
    const into = target ?? targetRef.current
    const items = files.map((file) => ({ key: pendingKey(), fileName: file.name, bytes: file.size, path: pathForDroppedFile(file), file, target: into }))
    setPending((previous) => [...previous, ...items])
  }, [])

  const addPaths = useCallback((paths: readonly string[]) => {
    const into = targetRef.current
    const items = paths.map((path) => ({ key: pendingKey(), fileName: path.split(/[\\/]/).pop() ?? path, bytes: 0, path, file: null, target: into }))
    setPending((previous) => [...previous, ...items])
  }, [])

  /** "Import…": the native dialog in Electron, the file input in the harness. */
  const pickFiles = useCallback(() => {
    setPickError(null)
    if (hostKind === 'electron') {
      call('dialogs/pickFiles', {})
        .then(({ paths }) => addPaths(paths))
        .catch((error: unknown) => setPickError(errorData(error)))
    } else inputRef.current?.click()
  }, [addPaths])

  const onInput = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])]
    event.target.value = ''
    if (files.length) addFiles(files)
  }

  const current = pending[0]
  const next = () => setPending((previous) => previous.slice(1))
  // Memoized: the panel's open state follows this list by identity.
  const visibleJobs = useMemo(() => jobs.filter((j) => !hidden.has(j.id)), [jobs, hidden])
  const panelId = useId()
  const [panelOpen, setPanelOpen] = useJobsPanelOpen(visibleJobs)

  const element = (
    <>
      <input ref={inputRef} type="file" multiple hidden aria-label="Files to import" data-testid="import-file-input" onChange={onInput} />
      {current && (
        <Suspense fallback={null}>
          <ImportSheet
            key={current.key}
            item={current}
            total={pending.length}
            connections={connections}
            onStarted={(job) => {
              upsert(job, false)
              next()
            }}
            onSkip={next}
          />
        </Suspense>
      )}
      {pickError && (
        <div className="import-toast">
          <ErrorPanel error={pickError} title="Could not open the file dialog" actions={[{ label: 'Dismiss', run: () => setPickError(null) }]} compact />
        </div>
      )}
    </>
  )

  // Docked under the content while shown; otherwise only the status-bar indicator says what happened.
  // Export jobs (extraJobs) share the panel; a running export keeps it open.
  const extraCount = extraJobs ? extraJobs.active + extraJobs.finished : 0
  const total = visibleJobs.length + extraCount
  const open = panelOpen || (extraJobs?.active ?? 0) > 0
  const dock =
    total > 0 && open ? (
      <JobsPanel
        id={panelId}
        jobs={visibleJobs}
        extra={extraJobs}
        onHide={() => setPanelOpen(false)}
        onCancel={(job) => void call('import/cancel', { jobId: job.id }).catch(() => undefined)}
        onOpen={(job) => onImported(job.target)}
        onClear={() => setHidden(new Set(jobs.filter((j) => j.state !== 'queued' && j.state !== 'running').map((j) => j.id)))}
      />
    ) : null
  const indicator =
    total > 0 ? <ImportsIndicator jobs={visibleJobs} exporting={extraJobs?.active ?? 0} otherFinished={extraJobs?.finished ?? 0} open={open} panelId={panelId} onToggle={() => setPanelOpen(!open)} /> : null

  return { element, dock, indicator, addFiles, pickFiles }
}
