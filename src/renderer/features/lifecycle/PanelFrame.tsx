import type { ReactNode } from 'react'
import './lifecycle.css'

/** The side panel shell shared by Versions, Indexes and Stats (same look as the Schema panel). */
export function PanelFrame({ title, meta, onClose, children }: { title: string; meta?: string; onClose(): void; children: ReactNode }) {
  return (
    <aside className="schema-panel lifecycle-panel" aria-label={title}>
      <div className="panel-header">
        <span className="panel-title">{title}</span>
        <span className="panel-meta">{meta}</span>
        <button type="button" className="icon-button" aria-label={`Close ${title.toLowerCase()}`} title={`Close ${title.toLowerCase()}`} onClick={onClose}>
          ×
        </button>
      </div>
      <div className="lifecycle-scroll">{children}</div>
    </aside>
  )
}
