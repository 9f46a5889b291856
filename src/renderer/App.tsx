import { useCallback, useEffect, useMemo, useState, type DragEvent } from 'react'
import type { AppErrorData, AppInfo, ConnectionInfo, RecentDirectory, TableRef } from '../contract'
import { call, onHostEvent, pathForDroppedFile } from './api'
import { errorData } from './components/ErrorPanel'
import { Spinner } from './components/Spinner'
import { ConnectionPane, StartScreen, AddMenu, SavedConnections, useRemoteConnections, isBucket } from './features/connections'
import { Sidebar, namespaceKey, type TreeItemRow, useNamespaceTree, tableKey, useSidebarLayout } from './features/tree'
import { TableView, prefetchTable, TableIdentity, tableIdentity } from './features/table'
import { useTreeActions, type TreeActionTarget, type WriteAction } from './features/actions'
import { useImports, ImportButton, splitDropped } from './features/import'
import { useExportJobs } from './features/export'
import { combineJobViews, useIndexJobs, READ_ONLY_REASON, ReadOnlySwitch, useReadOnly } from './features/lifecycle'

type Selection =
  | { kind: 'table'; key: string; ref: TableRef }
  | { kind: 'namespace'; key: string; connectionId: string; namespace: string[] }
  | null

/** The window: start screen or tree + content, wiring state to the features. */
export function App() {
  const [info, setInfo] = useState<AppInfo | null>(null)
  const [bootError, setBootError] = useState<AppErrorData | null>(null)
  const [connections, setConnections] = useState<ConnectionInfo[]>([])
  const [recents, setRecents] = useState<RecentDirectory[]>([])
  const [selection, setSelection] = useState<Selection>(null)
  const [showStart, setShowStart] = useState(false)
  const [opening, setOpening] = useState(false)
  const [openError, setOpenError] = useState<AppErrorData | null>(null)
  const [filter, setFilter] = useState('')
  const [dragging, setDragging] = useState(false)

  const tree = useNamespaceTree(connections, filter)
  const sidebarLayout = useSidebarLayout()

  const loadRecents = useCallback(() => {
    call('connections/recent', {})
      .then(setRecents)
      .catch(() => undefined)
  }, [])

  useEffect(() => {
    Promise.all([call('app/info', {}), call('connections/list', {})])
      .then(([appInfo, list]) => {
        setInfo(appInfo)
        setConnections(list)
        // Start on the catalog opened at start (the demo catalog in the app), not on the start screen.
        const first = appInfo.initialConnection ?? list[0]
        if (first) setSelection({ kind: 'namespace', key: namespaceKey(first.id, []), connectionId: first.id, namespace: [] })
      })
      .catch((error: unknown) => setBootError(errorData(error)))
    loadRecents()
  }, [loadRecents])

  const addConnection = useCallback((connection: ConnectionInfo) => {
    setConnections((previous) => (previous.some((c) => c.id === connection.id) ? previous : [...previous, connection]))
    setSelection({ kind: 'namespace', key: namespaceKey(connection.id, []), connectionId: connection.id, namespace: [] })
    setShowStart(false)
    setOpenError(null)
  }, [])

  const remote = useRemoteConnections(addConnection)

  // After a write from the tree's context menu: never leave a dropped table or namespace selected.
  const onTreeChanged = useCallback((action: WriteAction, target: TreeActionTarget, result: { name?: string; namespace?: string[] }) => {
    const { connectionId, namespace } = target
    if (action === 'rename-table' && result.name) {
      const name = result.name
      const to = result.namespace ?? namespace
      setSelection((s) => (s?.kind === 'table' && s.key === tableKey(connectionId, namespace, target.name) ? { kind: 'table', key: tableKey(connectionId, to, name), ref: { connectionId, namespace: to, name } } : s))
    } else if (action === 'drop-table') {
      setSelection((s) => (s?.kind === 'table' && s.key === tableKey(connectionId, namespace, target.name) ? { kind: 'namespace', key: namespaceKey(connectionId, namespace), connectionId, namespace } : s))
    } else if (action === 'drop-namespace') {
      const parent = namespace.slice(0, -1)
      const inside = (c: string, ns: readonly string[]) => c === connectionId && namespace.every((part, i) => ns[i] === part)
      setSelection((s) => {
        if (!s) return s
        const [c, ns] = s.kind === 'table' ? [s.ref.connectionId, s.ref.namespace] : [s.connectionId, s.namespace]
        return inside(c, ns) ? { kind: 'namespace', key: namespaceKey(connectionId, parent), connectionId, namespace: parent } : s
      })
    }
  }, [])
  const treeActions = useTreeActions({
    connections,
    reload: (connectionId, namespace) => void tree.reload(connectionId, namespace),
    expand: tree.expand,
    onChanged: onTreeChanged,
    contentsOf: (connectionId, namespace) => {
      const node = tree.nodes.get(namespaceKey(connectionId, [...namespace]))
      return node?.status === 'loaded' ? { namespaces: node.namespaces.length, tables: node.tables.length } : undefined
    },
  })
  // Import: files go where they were dropped, else into the selected namespace (a table's own namespace).
  const importTarget = useMemo(() => {
    if (selection?.kind === 'table') return { connectionId: selection.ref.connectionId, namespace: [...selection.ref.namespace] }
    if (selection?.kind === 'namespace') return { connectionId: selection.connectionId, namespace: selection.namespace }
    return connections[0] ? { connectionId: connections[0].id, namespace: [] } : null
  }, [selection, connections])
  const { expand: expandTree, reload: reloadTree } = tree
  const [importEpoch, setImportEpoch] = useState(0)
  const onImported = useCallback(
    (ref: TableRef) => {
      const namespace = [...ref.namespace]
      for (let depth = 0; depth < namespace.length; depth++) expandTree(ref.connectionId, namespace.slice(0, depth))
      expandTree(ref.connectionId, namespace)
      void reloadTree(ref.connectionId, namespace)
      setShowStart(false)
      setSelection({ kind: 'table', key: tableKey(ref.connectionId, namespace, ref.name), ref: { ...ref, namespace } })
      // Overwrite or append into the open table: remount it to show the new version.
      setImportEpoch((n) => n + 1)
    },
    [expandTree, reloadTree],
  )
  const exportJobs = useExportJobs()
  const indexJobs = useIndexJobs()
  const imports = useImports({ connections, defaultTarget: importTarget, onImported, extraJobs: combineJobViews(exportJobs, indexJobs) })
  const readOnly = useReadOnly(connections, setConnections, (connectionId) => tree.refresh(connectionId))
  const remoteIds = useMemo(() => new Set(connections.filter((c) => c.kind === 'rest').map((c) => c.id)), [connections])
  const cloudIds = useMemo(() => new Set(connections.filter((c) => isBucket(c.location)).map((c) => c.id)), [connections])

  const openPath = useCallback(
    (path: string, create = false) => {
      setOpening(true)
      setOpenError(null)
      call(create ? 'connections/createCatalog' : 'connections/openDirectory', { path })
        .then((connection) => {
          addConnection(connection)
          loadRecents()
        })
        .catch((error: unknown) => {
          setOpenError(errorData(error))
          setShowStart(true)
        })
        .finally(() => setOpening(false))
    },
    [addConnection, loadRecents],
  )

  const pickDirectory = useCallback(() => {
    call('dialogs/pickDirectory', {})
      .then(({ path }) => {
        if (path) openPath(path)
      })
      .catch((error: unknown) => setOpenError(errorData(error)))
  }, [openPath])

  const { refresh } = tree
  const { openNew: openConnectDialog } = remote
  const { pickFiles: importFiles } = imports
  // Menu commands from main (Electron only).
  useEffect(() => {
    const offCommand = onHostEvent('app/command', ({ command }) => {
      if (command === 'open-directory') {
        if (info?.canPickDirectory) pickDirectory()
        else setShowStart(true)
      } else if (command === 'refresh') refresh()
      else if (command === 'connect-server') openConnectDialog()
      else if (command === 'import') importFiles()
    })
    return offCommand
  }, [info, pickDirectory, refresh, openConnectDialog, importFiles])

  const closeConnection = useCallback((connectionId: string) => {
    void call('connections/close', { connectionId }).catch(() => undefined)
    setConnections((previous) => previous.filter((c) => c.id !== connectionId))
    setSelection(null)
  }, [])

  const onActivate = useCallback((row: TreeItemRow) => {
    setShowStart(false)
    if (row.kind === 'table') {
      prefetchTable({ connectionId: row.connectionId, namespace: row.namespace, name: row.name })
      setSelection({ kind: 'table', key: row.key, ref: { connectionId: row.connectionId, namespace: row.namespace, name: row.name } })
    } else {
      setSelection({ kind: 'namespace', key: row.key, connectionId: row.connectionId, namespace: row.namespace })
    }
  }, [])

  const onDrop = (event: DragEvent) => {
    // A tree row took the drop (files into its namespace): only end the overlay.
    const handled = event.defaultPrevented
    event.preventDefault()
    setDragging(false)
    if (handled) return
    const { files, folders } = splitDropped(event.dataTransfer)
    if (files.length > 0) readOnly.guardImport(importTarget?.connectionId, () => imports.addFiles(files))
    const file = folders[0]
    if (!file) return
    const path = pathForDroppedFile(file)
    if (path) openPath(path)
    else {
      setShowStart(true)
      setOpenError({
        code: 'unsupported',
        message: 'This window cannot tell where a dropped folder is on disk',
        hint: 'Type or paste the directory path instead',
      })
    }
  }

  const selectedConnection = useMemo(() => {
    if (!selection) return null
    const id = selection.kind === 'table' ? selection.ref.connectionId : selection.connectionId
    return connections.find((c) => c.id === id) ?? null
  }, [selection, connections])

  if (bootError) {
    return (
      <div className="boot">
        <div className="error-panel" role="alert">
          <div className="error-body">
            <div className="error-title">The app could not start</div>
            <div className="error-message">{bootError.message}</div>
            {bootError.hint && <div className="error-hint">{bootError.hint}</div>}
          </div>
        </div>
      </div>
    )
  }
  if (!info) {
    return (
      <div className="boot">
        <Spinner label="Starting" /> Starting…
      </div>
    )
  }

  const showStartScreen = showStart || connections.length === 0 || !selection || !selectedConnection
  let content
  if (showStartScreen) {
    content = (
      <StartScreen
        recents={recents}
        canPickDirectory={info.canPickDirectory}
        opening={opening}
        error={openError}
        initialError={connections.length === 0 ? (info.initialError ?? null) : null}
        onOpenPath={openPath}
        onPickDirectory={pickDirectory}
        onCreateCatalog={(path) => openPath(path, true)}
        remote={
          <SavedConnections
            saved={remote.saved}
            open={connections}
            openingId={remote.openingId}
            failure={remote.failure}
            onNew={remote.openNew}
            onConnect={remote.connect}
            onEdit={remote.edit}
            onDelete={remote.remove}
            stores={remote.stores}
            onNewStore={remote.openNewStore}
            onConnectStore={remote.connectStore}
            onEditStore={remote.editStore}
            onDeleteStore={remote.removeStore}
          />
        }
      />
    )
  } else if (selection.kind === 'table') {
    content = <TableView key={`${selection.key}#${importEpoch}`} tableRef={selection.ref} connectionLabel={selectedConnection.label} writeBlock={selectedConnection.readOnly ? READ_ONLY_REASON : undefined} />
  } else {
    content = (
      <ConnectionPane
        key={selection.key}
        connection={selectedConnection}
        namespace={selection.namespace}
        node={tree.nodes.get(namespaceKey(selection.connectionId, selection.namespace))}
        onRetry={() => void tree.reload(selection.connectionId, selection.namespace)}
        onClose={() => closeConnection(selection.connectionId)}
        readOnlySwitch={<ReadOnlySwitch connection={selectedConnection} onChange={(on) => void readOnly.setReadOnly(selectedConnection.id, on).catch(() => undefined)} />}
      />
    )
  }

  return (
    <div
      className={`app${dragging ? ' dragging' : ''}${sidebarLayout.className}`}
      style={sidebarLayout.style}
      onDragOver={(event) => {
        event.preventDefault()
        setDragging(true)
      }}
      onDragLeave={(event) => {
        if (event.currentTarget === event.target) setDragging(false)
      }}
      onDrop={onDrop}
    >
      {sidebarLayout.rail}
      <Sidebar
        collapseButton={sidebarLayout.collapseButton}
        connections={connections}
        rows={tree.rows}
        selectedKey={selection?.key ?? null}
        filter={filter}
        onFilter={setFilter}
        onRefresh={() => refresh()}
        onOpenNew={() => {
          setOpenError(null)
          setShowStart(true)
        }}
        onActivate={onActivate}
        addMenu={
          <AddMenu
            saved={remote.saved}
            onConnectServer={remote.openNew}
            onOpenSaved={remote.connect}
            stores={remote.stores}
            onConnectStore={remote.openNewStore}
            onOpenStore={remote.connectStore}
          />
        }
        onDropFiles={(row, transfer) => {
          const { files } = splitDropped(transfer)
          if (files.length > 0) readOnly.guardImport(row.connectionId, () => imports.addFiles(files, { connectionId: row.connectionId, namespace: [...row.namespace] }))
        }}
        importButton={<ImportButton onClick={importFiles} disabled={connections.length === 0} />}
        onContextMenu={(row, x, y) => treeActions.openMenu({ kind: row.kind, connectionId: row.connectionId, namespace: row.namespace, name: row.name }, x, y)}
        remoteConnections={remoteIds}
        cloudConnections={cloudIds}
        onExpand={(row) => tree.expand(row.connectionId, row.namespace)}
        onCollapse={(row) => tree.collapse(row.key)}
        onRetry={(parentKey) => {
          const [connectionId = '', ...namespace] = JSON.parse(parentKey.slice(2)) as string[]
          void tree.reload(connectionId, namespace)
        }}
      />
      {sidebarLayout.handle}
      <div className="app-main">
        {readOnly.recoveryPrompts}
        {/* Per-table preferences (hidden columns) are kept under the open table's identity. */}
        <TableIdentity.Provider value={selection?.kind === 'table' && selectedConnection ? tableIdentity(selectedConnection.location, selection.ref.namespace, selection.ref.name) : null}>
          <main className="content">{content}</main>
        </TableIdentity.Provider>
        {imports.dock}
      </div>
      {imports.indicator && <footer className="app-status">{imports.indicator}</footer>}
      {dragging && <div className="drop-overlay">Drop files to import them, or drop a folder to open it as a catalog</div>}
      {remote.element}
      {treeActions.element}
      {imports.element}
      {readOnly.element}
    </div>
  )
}
