import { ConfirmDialog } from '../lifecycle/ConfirmDialog'

/**
 * The confirmation of **Create a catalog here**: says exactly what will be written (one `__manifest` table, by
 * lancedb) and where, before anything is.
 */
export function CreateCatalogDialog({ location, onConfirm, onClose }: { location: string; onConfirm(): void; onClose(): void }) {
  return (
    <ConfirmDialog
      title="Create a catalog here"
      confirmLabel="Create catalog"
      run={async () => {
        onConfirm()
        return Promise.resolve()
      }}
      onClose={onClose}
    >
      <p>
        Make <code className="break-all">{location}</code> a Lance catalog? lancedb writes one folder there, <code>__manifest</code> (the table that lists the catalog&rsquo;s
        namespaces and tables); nothing else is written. The catalog opens empty: drop files on it, or use <strong>New table…</strong>, to make the first table.
      </p>
    </ConfirmDialog>
  )
}
