import { useState } from 'react'
import type { SavedKind, SavedView } from '../../../contract'
import { ContextMenu } from '../../components/ContextMenu'
import { ServerIcon } from '../../components/ServerIcon'

/** The sidebar's server button: a new connection (server or object storage), or one of the saved ones. */
export function AddMenu({ saved, onNew, onOpen }: { saved: readonly SavedView[]; onNew(kind: SavedKind): void; onOpen(view: SavedView): void }) {
  const [at, setAt] = useState<{ x: number; y: number } | null>(null)
  const items = [
    { id: 'server', label: 'Connect to server…', disabled: false },
    { id: 'store', label: 'Connect to object storage…', disabled: false },
    ...saved.map((view) => ({ id: `saved:${view.id}`, label: `Connect to “${view.name}”`, disabled: false })),
  ]
  return (
    <>
      <button
        type="button"
        className="icon-button"
        aria-label="Catalog servers"
        title="Connect to a catalog server"
        aria-haspopup="menu"
        aria-expanded={at !== null}
        onClick={(event) => {
          const box = event.currentTarget.getBoundingClientRect()
          setAt({ x: box.left, y: box.bottom + 2 })
        }}
      >
        <ServerIcon />
      </button>
      {at && (
        <ContextMenu
          x={at.x}
          y={at.y}
          label="Catalog servers"
          items={items}
          onClose={() => setAt(null)}
          onChoose={(item) => {
            setAt(null)
            const id = item.id
            if (id === 'server') onNew('rest')
            else if (id === 'store') onNew('object-store')
            else {
              const view = saved.find((v) => `saved:${v.id}` === id)
              if (view) onOpen(view)
            }
          }}
        />
      )}
    </>
  )
}
