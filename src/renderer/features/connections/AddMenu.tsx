import { useState } from 'react'
import type { SavedConnectionView } from '../../../contract'
import { PlusIcon } from '../../components/Icons'
import { TreeContextMenu } from '../actions/TreeContextMenu'

/** The sidebar's "+": open a directory, connect to a new server, or open a saved one. */
export function AddMenu({ saved, onOpenDirectory, onConnectServer, onOpenSaved }: { saved: readonly SavedConnectionView[]; onOpenDirectory(): void; onConnectServer(): void; onOpenSaved(view: SavedConnectionView): void }) {
  const [at, setAt] = useState<{ x: number; y: number } | null>(null)
  const items = [
    { id: 'dir', label: 'Open directory…', disabled: false },
    { id: 'server', label: 'Connect to server…', disabled: false },
    ...saved.map((view) => ({ id: `saved:${view.id}`, label: `Connect to “${view.name}”`, disabled: false })),
  ]
  return (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label="Add a catalog"
        title="Add a catalog"
        aria-haspopup="menu"
        aria-expanded={at !== null}
        onClick={(event) => {
          const box = event.currentTarget.getBoundingClientRect()
          setAt({ x: box.left, y: box.bottom + 2 })
        }}
      >
        <PlusIcon />
      </button>
      {at && (
        <TreeContextMenu
          x={at.x}
          y={at.y}
          label="Add a catalog"
          items={items}
          onClose={() => setAt(null)}
          onChoose={(item) => {
            setAt(null)
            const id = item.id
            if (id === 'dir') onOpenDirectory()
            else if (id === 'server') onConnectServer()
            else {
              const view = saved.find((v) => `saved:${v.id}` === id)
              if (view) onOpenSaved(view)
            }
          }}
        />
      )}
    </>
  )
}
