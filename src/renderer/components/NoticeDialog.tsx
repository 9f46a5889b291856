import { useId, type ReactNode } from 'react'
import { CloseFooter } from './DialogFooter'
import { Modal } from './Modal'

/** A dialog that only tells something (why an action cannot run), with one Close button. */
export function NoticeDialog({ title, children, onClose }: { title: string; children: ReactNode; onClose(): void }) {
  const titleId = useId()
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="action-dialog" role="alertdialog">
      <div className="dialog-form">
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
        </header>
        <div className="dialog-body">{children}</div>
        <CloseFooter onClose={onClose} primary />
      </div>
    </Modal>
  )
}
