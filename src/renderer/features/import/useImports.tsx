import { useMutation } from '@tanstack/react-query'
import { lazy, Suspense, useCallback, useLayoutEffect, useMemo, useRef, useState, type ChangeEvent } from 'react'
import type { ConnectionInfo, TableRef } from '../../../contract'
import { call, hostKind, pathForDroppedFile } from '../../api'
import { ErrorPanel, errorData } from '../../components/ErrorPanel'
import { useJobsDone } from '../jobs'
import { pendingKey, type ImportTarget, type PendingFile } from './dropped'
// Drop targets in the tree and the pick-error toast are styled here, before the sheet's code first loads.
import './import.css'

// Loaded on first use: the first paint does not need the sheet's code, so the cold open is faster.
const ImportSheet = lazy(() => import('./ImportSheet').then((m) => ({ default: m.ImportSheet })))

export interface UseImportsOptions {
  connections: readonly ConnectionInfo[]
  /** Where files go when they were not dropped on a namespace: the selection. */
  defaultTarget: ImportTarget | null
  /** A job finished: select its table (expand and refresh its namespace, open it). */
  onImported(ref: TableRef): void
}

/**
 * Import as the window sees it: files waiting for their sheet (one sheet at a time, in drop
 * order), and the hidden file input the harness uses for "Import…" (a browser has no native file
 * dialog to ask for paths). The jobs it starts are shown by the jobs feature (features/jobs); the queue is drawn by
 * `ImportQueue`.
 */
export function useImports({ connections, defaultTarget, onImported }: UseImportsOptions) {
  const [pending, setPending] = useState<PendingFile[]>([])
  const inputRef = useRef<HTMLInputElement>(null)
  const targetRef = useRef(defaultTarget)
  const importedRef = useRef(onImported)
  useLayoutEffect(() => {
    targetRef.current = defaultTarget
    importedRef.current = onImported
  })

  useJobsDone('import', (job) => importedRef.current(job.target))

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

  // "Import…" in Electron asks main for paths (a read); why it failed is the mutation's error, dismissed by a reset.
  const picking = useMutation({ mutationFn: () => call('dialogs/pickFiles', {}), onSuccess: ({ paths }) => addPaths(paths) })
  const { mutate: pick, reset: dismissPickError } = picking
  const pickError = useMemo(() => (picking.error ? errorData(picking.error) : null), [picking.error])

  /** "Import…": the native dialog in Electron, the file input in the harness. */
  const pickFiles = useCallback(() => {
    if (hostKind === 'electron') pick()
    else inputRef.current?.click()
  }, [pick])

  const onInput = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])]
    event.target.value = ''
    if (files.length) addFiles(files)
  }

  const next = useCallback(() => setPending((previous) => previous.slice(1)), [])

  return { addFiles, pickFiles, connections, current: pending[0], total: pending.length, next, inputRef, onInput, pickError, dismissPickError }
}

/** The queue as the window shows it: the hidden file input, the first file's sheet (a lazy chunk), the pick error. */
export function ImportQueue({ imports }: { imports: ReturnType<typeof useImports> }) {
  const { connections, current, total, next, inputRef, onInput, pickError, dismissPickError } = imports
  return (
    <>
      <input ref={inputRef} type="file" multiple hidden aria-label="Files to import" data-testid="import-file-input" onChange={onInput} />
      {current && (
        <Suspense fallback={null}>
          <ImportSheet key={current.key} item={current} total={total} connections={connections} onStarted={() => next()} onSkip={next} />
        </Suspense>
      )}
      {pickError && (
        <div className="import-toast">
          <ErrorPanel error={pickError} title="Could not open the file dialog" actions={[{ label: 'Dismiss', run: dismissPickError }]} compact />
        </div>
      )}
    </>
  )
}
