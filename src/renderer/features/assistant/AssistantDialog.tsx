import { useId, useMemo, useState } from 'react'
import type { ConnectionInfo, McpLauncher, SavedView } from '../../../contract'
import { CloseFooter } from '../../components/DialogFooter'
import { Modal } from '../../components/Modal'
import { assistantSnippets, type AssistantId } from './snippets'

/**
 * **Connect an assistant…**: for the catalog `connection`, the configuration snippet of each assistant with a Copy
 * button; read-only unless **Allow writes** is ticked. Secrets are never in a snippet (see snippets.ts).
 */
export function AssistantDialog({ connection, saved, launcher, onClose }: { connection: ConnectionInfo; saved: SavedView | undefined; launcher: McpLauncher | undefined; onClose(): void }) {
  const titleId = useId()
  const [allowWrites, setAllowWrites] = useState(false)
  const [copied, setCopied] = useState<AssistantId | null>(null)
  const [copyError, setCopyError] = useState<string | null>(null)
  const set = useMemo(() => assistantSnippets(connection, saved, launcher, allowWrites), [connection, saved, launcher, allowWrites])
  const copy = (id: AssistantId, text: string) => {
    setCopyError(null)
    if (!navigator.clipboard?.writeText) return setCopyError('The clipboard is not available here: select the text and copy it')
    navigator.clipboard.writeText(text).then(
      () => setCopied(id),
      (error: unknown) => setCopyError(`Could not copy: ${error instanceof Error ? error.message : String(error)}`),
    )
  }
  return (
    <Modal labelledBy={titleId} onClose={onClose} className="assistant-dialog">
      <div className="dialog-form">
        <header className="dialog-header">
          <h2 id={titleId}>Connect an assistant to {connection.label}</h2>
        </header>
        <div className="dialog-body">
          <p>
            AI assistants that speak the Model Context Protocol can read this catalog through Lance Catalog Browser's MCP server: list, describe, count, filter,
            search and profile its tables, with every answer bounded. Add the snippet to your assistant's configuration and restart it.
          </p>
          <label className="checkbox">
            <input type="checkbox" checked={allowWrites} onChange={(event) => setAllowWrites(event.target.checked)} />
            Allow writes (create namespaces, import files, add and delete rows)
          </label>
          {set.placeholder && (
            <p className="muted" role="note">
              This app does not run from a checkout of Lance Catalog Browser: replace {set.placeholder} with the folder of one (the MCP server runs from it with npm).
            </p>
          )}
          {set.secrets.length > 0 && (
            <p role="note">
              No key is written into these snippets. The server reads {set.secrets.map((s) => `${s.variable} (${s.what})`).join(', ')} from its environment: VS Code asks for it
              once and keeps it in its secret storage; Cursor takes it from your environment; for Claude Desktop add an &quot;env&quot; block with it to the config yourself.
            </p>
          )}
          {set.snippets.map((snippet) => (
            <section key={snippet.id} className="assistant-snippet" aria-label={snippet.title}>
              <div className="assistant-snippet-head">
                <h3>{snippet.title}</h3>
                <span className="muted">{snippet.file}</span>
                <button type="button" className="button" onClick={() => copy(snippet.id, snippet.text)} aria-label={`Copy the ${snippet.title} snippet`}>
                  {copied === snippet.id ? 'Copied' : 'Copy'}
                </button>
              </div>
              <pre className="selectable" data-testid={`snippet-${snippet.id}`}>
                {snippet.text}
              </pre>
            </section>
          ))}
          {connection.kind === 'dir' && /^(s3|gs|az):\/\//.test(connection.location) && (
            <p role="note">The store's credentials are not in the snippet: the server reads them from the environment Lance reads (AWS_*, GOOGLE_*, AZURE_STORAGE_*).</p>
          )}
          {copyError && (
            <p role="alert" className="field-error">
              {copyError}
            </p>
          )}
        </div>
        <CloseFooter onClose={onClose} primary />
      </div>
    </Modal>
  )
}
