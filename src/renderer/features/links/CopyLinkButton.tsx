import './links.css'
import { useState } from 'react'
import type { TableRef } from '../../../contract'
import { useConnections } from '../../queries/connections'
import { ButtonWithNote } from '../../components/ButtonNote'
import { LinkIcon } from '../../components/Icons'
import { viewLinkOf, type LinkedView } from './viewLinkOf'

/** Put the link on the clipboard; a refusal (a location with a secret, no clipboard) comes back in words. */
export async function copyViewLink(connections: ReturnType<typeof useConnections>, ref: TableRef, view: LinkedView): Promise<string> {
  const connection = connections.find((c) => c.id === ref.connectionId)
  if (!connection) throw new Error('This table’s catalog is no longer open')
  const link = viewLinkOf(connection, ref, view)
  if (!navigator.clipboard?.writeText) throw new Error('The clipboard is not available here')
  await navigator.clipboard.writeText(link)
  return link
}

/** The table toolbar's **Copy link to this view**: catalog, table, version, filter, sort and the selected row. */
export function CopyLinkButton({ tableRef, view, disabled }: { tableRef: TableRef; view: () => LinkedView; disabled?: boolean }) {
  const connections = useConnections()
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null)
  const copy = () => {
    copyViewLink(connections, tableRef, view())
      .then(() => setSaid({ ok: true, text: 'Link copied' }))
      .catch((error: unknown) => setSaid({ ok: false, text: error instanceof Error ? error.message : String(error) }))
  }
  return (
    // An icon, so the toolbar keeps one line at 1280 px; what happened floats under it and moves nothing.
    <ButtonWithNote
      note={said?.text}
      error={said !== null && !said.ok}
      button={
        <button type="button" className="icon-button" aria-label="Copy link to this view" disabled={disabled} onClick={copy} onBlur={() => setSaid(null)} title="Copy link to this view: a lance-catalog:// link that opens it (catalog, table, version, filter, sort, selected row)">
          <LinkIcon />
        </button>
      }
    />
  )
}
