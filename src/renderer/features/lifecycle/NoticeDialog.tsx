import { useId, type ReactNode } from 'react'
import { Modal } from '../actions/Modal'

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
        <footer className="dialog-footer">
          <div className="dialog-footer-left" />
          <div className="dialog-footer-right">
            <button type="button" className="button primary" onClick={onClose} data-autofocus>
              Close
            </button>
          </div>
        </footer>
      </div>
    </Modal>
  )
}
