import { useState, type ReactNode } from 'react'
import { pathForDroppedFile } from '../api'
import { useOpenCatalog } from '../features/connections'
import { splitDropped } from '../features/import'
import { useNavigation } from '../features/navigation'
import { SidebarCollapseButton, SidebarHandle, SidebarRail, useSidebarLayout } from '../features/tree'

/**
 * The window's frame: the sidebar (resizable, foldable) beside the content, and drops anywhere on it — files to
 * import (`onDropFiles`), a folder to open as a catalog.
 */
export function AppFrame({ sidebar, onDropFiles, children }: { sidebar(collapseButton: ReactNode): ReactNode; onDropFiles(files: File[]): void; children: ReactNode }) {
  const [dragging, setDragging] = useState(false)
  const { collapsed, width, setCollapsed, railButtonRef, hideButtonRef, handleEvents, className, style } = useSidebarLayout()
  const { openPath } = useOpenCatalog()
  const { showStart } = useNavigation()
  return (
    <div
      className={`app${dragging ? ' dragging' : ''}${className}`}
      style={style}
      onDragOver={(event) => {
        event.preventDefault()
        setDragging(true)
      }}
      onDragLeave={(event) => {
        if (event.currentTarget === event.target) setDragging(false)
      }}
      onDrop={(event) => {
        // A tree row took the drop (files into its namespace): only end the overlay.
        const handled = event.defaultPrevented
        event.preventDefault()
        setDragging(false)
        if (handled) return
        const { files, folders } = splitDropped(event.dataTransfer)
        if (files.length > 0) onDropFiles(files)
        const folder = folders[0]
        if (!folder) return
        const path = pathForDroppedFile(folder)
        if (path) openPath(path)
        else showStart({ code: 'unsupported', message: 'This window cannot tell where a dropped folder is on disk', hint: 'Type or paste the directory path instead' })
      }}
    >
      <SidebarRail collapsed={collapsed} buttonRef={railButtonRef} onShow={() => setCollapsed(false)} />
      {sidebar(<SidebarCollapseButton buttonRef={hideButtonRef} onHide={() => setCollapsed(true)} />)}
      <SidebarHandle collapsed={collapsed} width={width} events={handleEvents} />
      {children}
      {dragging && <div className="drop-overlay">Drop files to import them, or drop a folder to open it as a catalog</div>}
    </div>
  )
}
