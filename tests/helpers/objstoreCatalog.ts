import { connectNamespace } from '@lancedb/lancedb'
import { sampleTable, type CatalogSpec } from './catalog'

/**
 * Fill a catalog on object storage (e.g. Azurite's `az://…`) with lancedb itself, so the app's object-store path is
 * tested against data it did not write. The options go both as `storage.*` properties and to createTable.
 */
export async function buildObjectStoreCatalog(root: string, storageOptions: Record<string, string>, spec: CatalogSpec): Promise<string> {
  const extraProperties = Object.fromEntries(Object.entries(storageOptions).map(([k, v]) => [`storage.${k}`, v]))
  const db = await connectNamespace('dir', { root, extraProperties }, { storageOptions })
  try {
    for (const namespace of spec.namespaces ?? []) await db.createNamespace(namespace)
    for (const table of spec.tables ?? []) {
      const created = await db.createTable(table.name, table.data ?? sampleTable(table.rows ?? 10, table.sample), table.namespace, { storageOptions })
      created.close()
    }
  } finally {
    db.close()
  }
  return root
}
