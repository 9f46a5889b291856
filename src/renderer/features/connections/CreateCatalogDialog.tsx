import { ConfirmDialog } from '../../components/ConfirmDialog'

/**
 * The confirmation of **Create a catalog here**: says exactly what will be written (one `__manifest` table, by
 * lancedb) and where, before anything is.
 */
export function CreateCatalogDialog({ location, onConfirm, onClose }: { location: string; onConfirm(): void; onClose(): void }) {
  const inBucket = /^(s3|gs|az|abfss?):\/\//i.test(location)
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
        Make <code className="break-all">{location}</code> a Lance catalog? lancedb writes <code>__manifest</code> there (the table that lists the catalog&rsquo;s namespaces
        and tables); nothing else is written.{' '}
        {inBucket ? (
          <>
            The catalog opens empty. In a bucket the app cannot make tables yet (imports and <strong>New table…</strong> publish through a local <code>__manifest</code>
            edit): create the first one with lancedb, or through a catalog server over this bucket.
          </>
        ) : (
          <>
            The catalog opens empty: drop files on it, or use <strong>New table…</strong>, to make the first table.
          </>
        )}
      </p>
    </ConfirmDialog>
  )
}
