import type { ReactNode } from 'react'
import type { ConnectionInfo } from '../../../contract'
import { ErrorPanel } from '../../components/ErrorPanel'
import { DatabaseIcon, FolderIcon } from '../../components/Icons'
import { ServerIcon } from '../../components/ServerIcon'
import { CloudIcon } from '../../components/CloudIcon'
import { isBucket } from './objectStoreForm'
import { Spinner } from '../../components/Spinner'
import type { NamespaceNode } from '../../queries/namespaces'
import { formatCount } from '../../lib/format'

/** Right pane when a connection or namespace is selected: what it holds, or its error and the fix. */
export function ConnectionPane({
  connection,
  namespace,
  node,
  onRetry,
  onClose,
  readOnlySwitch,
  assistantButton,
}: {
  connection: ConnectionInfo
  namespace: readonly string[]
  node: NamespaceNode | undefined
  onRetry(): void
  onClose(): void
  /** The connection's Read-only switch (src/renderer/features/lifecycle). */
  readOnlySwitch?: ReactNode
  /** **Connect an assistant…** for this catalog (src/renderer/features/assistant), at the root. */
  assistantButton?: ReactNode
}) {
  const isRoot = namespace.length === 0
  return (
    <section className="connection-pane" aria-label={isRoot ? `Connection ${connection.label}` : `Namespace ${namespace.join('/')}`}>
      <header className="table-header">
        {isRoot && connection.kind === 'rest' ? <ServerIcon className="table-header-icon" /> : isRoot && isBucket(connection.location) ? <CloudIcon className="table-header-icon" /> : isRoot ? <DatabaseIcon className="table-header-icon" /> : <FolderIcon className="table-header-icon" />}
        <div className="table-title">
          <h1 className="table-name">{isRoot ? connection.label : namespace[namespace.length - 1]}</h1>
          <div className="table-path">
            {isRoot ? (
              <span className="path-part">{connection.location}</span>
            ) : (
              [connection.label, ...namespace.slice(0, -1)].map((part, i) => (
                <span key={i} className="path-part">
                  {part}
                </span>
              ))
            )}
          </div>
        </div>
        <div className="toolbar">
          {readOnlySwitch}
          {isRoot && assistantButton}
          {isRoot && (
            <button type="button" className="button" onClick={onClose}>
              Close connection
            </button>
          )}
        </div>
      </header>
      <div className="placeholder">
        {!node || node.status === 'loading' ? (
          <span>
            <Spinner /> Loading…
          </span>
        ) : node.status === 'error' && node.error ? (
          <ErrorPanel
            error={node.error}
            title={isRoot ? `Could not read ${connection.location}` : `Could not list ${namespace.join('/')}`}
            actions={[{ label: 'Retry', run: onRetry }, ...(isRoot ? [{ label: 'Close connection', run: onClose }] : [])]}
          />
        ) : (
          <div className="summary">
            <div className="summary-counts">
              {formatCount(node.namespaces.length)} {node.namespaces.length === 1 ? 'namespace' : 'namespaces'} · {formatCount(node.tables.length)} {node.tables.length === 1 ? 'table' : 'tables'}
            </div>
            <div className="muted">Select a table in the tree to see its rows.</div>
          </div>
        )}
      </div>
    </section>
  )
}
