import type { ReactNode } from 'react'
import { CloseIcon } from './Icons'
import './panel.css'

/**
 * The header every docked panel shares (Schema, Summary, Map, Versions, Indexes, Stats, the cell inspector): its
 * title, a line of facts, the panel's own controls and the close button (named "Close <title>", as the specs and
 * screen readers know it).
 */
export function PanelHeader({ title, meta, metaTestId, metaTitle, closeLabel, closeTitle, onClose, children, as = 'div' }: {
  title: string
  meta?: ReactNode
  metaTestId?: string
  /** The facts in full, as a tooltip (the line is cut with an ellipsis). */
  metaTitle?: string
  /** Defaults to "Close <title in lower case>". */
  closeLabel?: string
  closeTitle?: string
  onClose(): void
  /** Controls between the title and the facts (a column picker, a method). */
  children?: ReactNode
  as?: 'div' | 'header'
}) {
  const label = closeLabel ?? `Close ${title.toLowerCase()}`
  const Tag = as
  return (
    <Tag className="panel-header">
      <span className="panel-title">{title}</span>
      {children}
      <span className="panel-meta" data-testid={metaTestId} title={metaTitle ?? (typeof meta === 'string' ? meta : undefined)}>
        {meta}
      </span>
      <button type="button" className="icon-button" aria-label={label} title={closeTitle ?? label} onClick={onClose}>
        <CloseIcon />
      </button>
    </Tag>
  )
}
