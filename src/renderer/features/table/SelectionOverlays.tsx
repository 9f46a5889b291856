import { useId } from 'react'
import { Modal } from '../../components/Modal'
import { ContextMenu } from '../../components/ContextMenu'
import { formatCount } from '../../lib/format'
import { CellInspector } from './CellInspector'
import { FORMAT_NAMES } from './useGridCopy'
import { rangeSize } from './selection'
import type { useGridSelection } from './useGridSelection'

type Selection = ReturnType<typeof useGridSelection>

/** A column header's ⋮ button: opens the column's menu below it. */
export function ColumnMenuButton({ col, name, onOpen }: { col: number; name: string; onOpen(col: number, x: number, y: number): void }) {
  return (
    <button
      type="button"
      className="header-menu-button"
      aria-label={`Column menu for ${name}`}
      aria-haspopup="menu"
      title="Column menu"
      onMouseDown={(event) => event.stopPropagation()}
      onClick={(event) => {
        event.stopPropagation()
        const box = event.currentTarget.getBoundingClientRect()
        onOpen(col, box.left, box.bottom + 2)
      }}
    >
      ⋮
    </button>
  )
}

/**
 * What the grid's selection shows above the grid: its menu, the large-copy question, the copy toast and — for a
 * grid whose host has no dock for it (`inline`: a query's result) — the cell inspector.
 */
export function SelectionOverlays({ selection, inline }: { selection: Selection; inline: boolean }) {
  const { menu, menuLabel, menuItems, choose, closeMenu, copy, notice, runCopy, cancelConfirm, dismissNotice, inspected, closeInspector } = selection
  const confirmTitle = useId()
  return (
    <>
      {menu && <ContextMenu x={menu.x} y={menu.y} label={menuLabel} items={menuItems} onChoose={choose} onClose={closeMenu} />}
      {copy?.state === 'confirm' && (
        <Modal labelledBy={confirmTitle} onClose={cancelConfirm} className="action-dialog" role="alertdialog">
          <div className="dialog-form">
            <header className="dialog-header">
              <h2 id={confirmTitle}>Copy {formatCount(rangeSize(copy.range).rows)} rows?</h2>
            </header>
            <div className="dialog-body">
              <p>
                That is {formatCount(rangeSize(copy.range).rows * rangeSize(copy.range).columns)} values, every one whole, as {FORMAT_NAMES[copy.format]}. Rows the grid
                has not loaded are read from the table first; you can cancel while it runs.
              </p>
            </div>
            <footer className="dialog-footer">
              <div className="dialog-footer-left" />
              <div className="dialog-footer-right">
                <button type="button" className="button" onClick={cancelConfirm}>
                  Cancel
                </button>
                <button type="button" className="button primary" data-autofocus onClick={() => void runCopy(copy.range, copy.format)}>
                  Copy
                </button>
              </div>
            </footer>
          </div>
        </Modal>
      )}
      {(copy?.state === 'running' || notice) && (
        <div className={`copy-toast${notice?.error ? ' error' : ''}`} role="status" aria-label="Copy">
          {copy?.state === 'running' ? (
            <>
              <span>
                Copying… {formatCount(copy.done)} of {formatCount(copy.total)} rows
              </span>
              <progress max={copy.total} value={copy.done} aria-label="Copy progress" />
              <button type="button" className="button small" onClick={() => copy.controller.abort()}>
                Cancel
              </button>
            </>
          ) : (
            <>
              <span>{notice?.text}</span>
              <button type="button" className="link-button small" onClick={dismissNotice}>
                Dismiss
              </button>
            </>
          )}
        </div>
      )}
      {inline && inspected && <CellInspector cell={inspected} onClose={closeInspector} />}
    </>
  )
}
