import './links.css'
import { catalogLocation } from '../../../contract/viewLink'
import { useViewLinks } from './useViewLinks'

/**
 * Where opening a link asks or says why not: "Connect to …?" before a catalog the user has not opened (the link
 * never carries a key), or the refusal of a malformed link, a gone table or version.
 */
export function LinkPrompt() {
  const { notice, connect, dismiss } = useViewLinks()
  if (!notice) return null
  if (notice.kind === 'ask') {
    const { link } = notice
    return (
      <section className="notice-banner link-prompt link-prompt-ask" role="alertdialog" aria-label="Open link">
        <div className="link-prompt-text">
          <p>
            This link opens <strong>{[...link.namespace, link.table].join('/')}</strong> in {notice.catalog}, which is not open. Connect to {catalogLocation(link.catalog)}?
          </p>
          {link.catalog.kind !== 'dir' && <p className="link-prompt-note">Links never carry keys: a saved connection to it is used, else the connection dialog opens for you to fill in.</p>}
        </div>
        <div className="link-prompt-actions">
          <button type="button" className="button primary" disabled={notice.connecting} onClick={connect}>
            {notice.connecting ? 'Connecting…' : 'Connect'}
          </button>
          <button type="button" className="button" onClick={dismiss}>
            Cancel
          </button>
        </div>
      </section>
    )
  }
  return (
    <section className="notice-banner link-prompt" role="alert" aria-label="Link not opened">
      <div className="link-prompt-text">
        <p>
          <strong>{notice.title}</strong>: {notice.message}
        </p>
        {notice.hint && <p className="link-prompt-note">{notice.hint}</p>}
      </div>
      <div className="link-prompt-actions">
        <button type="button" className="button" onClick={dismiss}>
          Dismiss
        </button>
      </div>
    </section>
  )
}
