import { lazy, Suspense } from 'react'
import { ContextMenu as TreeContextMenu } from '../../components/ContextMenu'
import { CascadeDropDialog, PropertiesDialog, NewTableDialog } from '../lifecycle'
import type { TreeActions } from './useTreeActions'
// Loaded on first use: the first paint does not need the dialog's code, so the cold open is faster.
const ActionDialog = lazy(() => import('./ActionDialog').then((m) => ({ default: m.ActionDialog })))

/** What `useTreeActions` has open: the tree's context menu, or the dialog of the action chosen in it. */
export function TreeActionLayer({ actions }: { actions: TreeActions }) {
  const { open, items, choose, close, failed, done, cascadeDone, tableCreated } = actions
  if (!open) return null
  const { target } = open
  switch (open.kind) {
    case 'menu':
      return <TreeContextMenu x={open.x} y={open.y} label={`Actions for ${target.name}`} items={items} onClose={close} onChoose={choose} />
    case 'write':
      return (
        <Suspense fallback={null}>
          <ActionDialog action={open.action} target={target} onCancel={close} onFailed={(error) => failed(open.action, target, error)} onDone={(result) => done(open.action, target, result)} />
        </Suspense>
      )
    case 'properties':
      return <PropertiesDialog target={target} onClose={close} />
    case 'cascade':
      return <CascadeDropDialog target={target} onCancel={close} onDone={() => cascadeDone(target)} />
    case 'new-table':
      return (
        <NewTableDialog
          connectionId={target.connectionId}
          namespace={target.namespace}
          where={target.kind === 'connection' ? `the root of ${target.name}` : `“${target.namespace.join(' / ')}”`}
          onCancel={close}
          onDone={() => tableCreated(target)}
        />
      )
  }
}
