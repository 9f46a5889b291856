import './links.css'
import { useState } from 'react'
import type { TableRef } from '../../../contract'
import { useConnections } from '../../queries/connections'
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
    <>
      <button type="button" className="button" disabled={disabled} onClick={copy} onBlur={() => setSaid(null)} title="Copy a lance-catalog:// link that opens this view (catalog, table, version, filter, sort, selected row)">
        Copy link to this view
      </button>
      {said && (
        <span role={said.ok ? 'status' : 'alert'} className={said.ok ? 'link-copied' : 'link-copy-error'}>
          {said.text}
        </span>
      )}
    </>
  )
}
