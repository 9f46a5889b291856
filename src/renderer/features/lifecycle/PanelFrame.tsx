import type { ReactNode } from 'react'
import { PanelHeader } from '../../components/PanelHeader'
import './lifecycle.css'

/** The side panel shell shared by Versions, Indexes and Stats (same look as the Schema panel). */
export function PanelFrame({ title, meta, onClose, children }: { title: string; meta?: string; onClose(): void; children: ReactNode }) {
  return (
    <aside className="side-panel lifecycle-panel" aria-label={title}>
      <PanelHeader title={title} meta={meta} onClose={onClose} />
      <div className="lifecycle-scroll">{children}</div>
    </aside>
  )
}
