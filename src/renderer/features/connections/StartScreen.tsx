import { useState, type FormEvent, type ReactNode } from 'react'
import type { AppErrorData, RecentDirectory } from '../../../contract'
import { EMPTY_ROOT_WORDS, isEmptyRootError } from '../../../contract/connections'
import { ErrorPanel } from '../../components/ErrorPanel'
import { CreateCatalogDialog } from './CreateCatalogDialog'
import { DatabaseIcon, FolderIcon } from '../../components/Icons'
import { Spinner } from '../../components/Spinner'
import { formatDate } from '../../lib/format'

export interface StartScreenProps {
  recents: readonly RecentDirectory[]
  canPickDirectory: boolean
  opening: boolean
  /** Why the last attempt to open failed (shown in place, under the form). */
  error: AppErrorData | null
  /** Why the catalog opened at start could not be opened. */
  initialError: AppErrorData | null
  onOpenPath(path: string): void
  onPickDirectory(): void
  /** **Create a catalog here** was confirmed for an empty directory: write its `__manifest` and open it. */
  onCreateCatalog?(path: string): void
  /** Saved catalog servers and "Connect to server…". */
  remote?: ReactNode
}

/** Open a directory catalog: typed or pasted path, native dialog, a dropped folder, or a recent one. */
export function StartScreen({ recents, canPickDirectory, opening, error, initialError, onOpenPath, onPickDirectory, onCreateCatalog, remote }: StartScreenProps) {
  const [path, setPath] = useState('')
  // The empty directory the user may make a catalog of (its path is what the error names).
  const [creating, setCreating] = useState<string | null>(null)
  const createAction = (e: AppErrorData | null) =>
    onCreateCatalog && isEmptyRootError(e) ? [{ label: 'Create a catalog here…', run: () => setCreating(emptyRootOf(e!)) }] : []
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (path.trim() !== '') onOpenPath(path.trim())
  }
  return (
    <section className="start-screen" aria-label="Open a catalog">
      <div className="start-card">
        <div className="start-heading">
          <DatabaseIcon className="start-icon" />
          <div>
            <h1>Open a Lance catalog</h1>
            <p className="muted">
              A catalog directory is a Lance directory namespace: a <code>__manifest</code> table lists its namespaces and tables, and
              each table keeps its own folder. Namespaces are rows of <code>__manifest</code>, not subdirectories.
            </p>
          </div>
        </div>
        {initialError && (
          <ErrorPanel error={initialError} title="The start catalog could not be opened" compact actions={createAction(initialError)} />
        )}
        <form className="open-form" onSubmit={submit}>
          <label htmlFor="open-path" className="field-label">
            Directory path
          </label>
          <div className="open-row">
            <input
              id="open-path"
              className="text-input"
              type="text"
              spellCheck={false}
              autoComplete="off"
              placeholder="/path/to/catalog"
              value={path}
              onChange={(event) => setPath(event.target.value)}
            />
            <button type="submit" className="button primary" disabled={opening || path.trim() === ''}>
              {opening ? <Spinner label="Opening" /> : null}
              Open
            </button>
          </div>
          {canPickDirectory && (
            <button type="button" className="button" onClick={onPickDirectory} disabled={opening}>
              <FolderIcon />
              Open directory…
            </button>
          )}
          <p className="muted small">You can also drop a folder onto this window.</p>
        </form>
        {error && (
          <ErrorPanel
            error={error}
            title="Could not open the directory"
            actions={[
              ...createAction(error),
              canPickDirectory
                ? { label: 'Choose a directory…', run: onPickDirectory }
                : { label: 'Edit the path', run: () => document.getElementById('open-path')?.focus() },
            ]}
          />
        )}
        {creating !== null && onCreateCatalog && (
          <CreateCatalogDialog
            location={creating}
            onConfirm={() => {
              onCreateCatalog(creating)
              setCreating(null)
            }}
            onClose={() => setCreating(null)}
          />
        )}
        {remote}
        {recents.length > 0 && (
          <div className="recents">
            <h2>Recent directories</h2>
            <ul>
              {recents.map((recent) => (
                <li key={recent.path}>
                  <button type="button" className="recent-item" onClick={() => onOpenPath(recent.path)} title={recent.path}>
                    <FolderIcon />
                    <span className="recent-path">{recent.path}</span>
                    <span className="recent-date">{formatDate(recent.openedAt)}</span>
                  </button>
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  )
}

/** The directory an "is empty" error names (core words it `<root> is empty: …`). */
function emptyRootOf(error: AppErrorData): string {
  return error.message.slice(0, error.message.length - EMPTY_ROOT_WORDS.length).trimEnd()
}
