import { AppError } from '../../contract'
import { formatTableId, objectStoreUnsupported, type DirNamespaceClient, type NameClaims, type TableId } from '../../core/namespace'
import type { Located, Locator } from '../locator'

/**
 * Locations on an object-store catalog. Nothing here writes, and nothing is kept between requests (other server
 * processes change the catalog): each answer comes from Lance, which resolves a table's location the way lancedb's
 * namespace does (a `__manifest` row for child-namespace tables, `{root}/{name}.lance` at the root).
 */
export class ObjectStoreLocator implements Locator {
  constructor(
    readonly root: string,
    private readonly client: DirNamespaceClient,
    private readonly claims: NameClaims | null = null,
  ) {}

  async locate(id: TableId): Promise<Located | null> {
    try {
      return { location: await this.client.locationOf(id), hasData: true, inManifest: id.namespace.length > 0 }
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return null
      // Listed, but no version committed yet: lancedb creates a table by declaring it (a `__manifest` row) and then
      // writing its data, so a writer killed in between leaves it declared only. Drop removes it.
      const declared = error instanceof AppError && error.code === 'corrupt' ? this.declaredLocation(error) : null
      if (declared) return { location: declared, hasData: false, inManifest: true }
      throw error
    }
  }

  /** Lance names the missing dataset by its path inside the bucket: `Dataset at path <prefix>/<dir> was not found`. */
  private declaredLocation(error: AppError): string | null {
    const path = /Dataset at path (\S+) was not found/.exec(`${error.detail ?? ''} ${error.message}`)?.[1]
    const root = new URL(this.root)
    if (!path || !`${this.root}/`.startsWith(`${root.protocol}//${root.host}/`)) return null
    const location = `${root.protocol}//${root.host}/${path}`
    return location.startsWith(`${this.root}/`) ? location : null
  }

  forget(): void {}

  /**
   * A root table's location is `{root}/{name}.lance`. Declaring it writes only the `.lance-reserved` marker there,
   * as lance-namespace's own declare does, with the store's conditional write (never over an existing one): of any
   * number of racing declares exactly one wins, and the name is then listed (declared only) until the client
   * (lancedb's REST client) writes the dataset there itself. Child-namespace tables need a `__manifest` row first:
   * unsupported.
   */
  async declare(id: TableId): Promise<string> {
    if (id.namespace.length > 0) throw objectStoreUnsupported('declareChild')
    if (await this.locate(id)) throw new AppError('already_exists', `Table ${formatTableId(id)} already exists`)
    if (this.claims && !(await this.claims.reserve(`${id.name}.lance/.lance-reserved`, 'reserved')))
      throw new AppError('already_exists', `Table ${formatTableId(id)} already exists (declared)`)
    return `${this.root}/${id.name}.lance`
  }

  /** lancedb's own drop removes root tables found by listing as well: nothing is left for us to do. */
  async dropUnlisted(): Promise<boolean> {
    return false
  }

  /**
   * A root table declared by us and never written holds only its `.lance-reserved` marker: removing it drops the
   * name. Anything else damaged stays (deleting a dataset's objects other than through Lance is not ours to do).
   */
  async dropDamaged(id: TableId): Promise<boolean> {
    if (id.namespace.length > 0 || !this.claims) return false
    const found = await this.locate(id)
    if (!found || found.hasData) return false
    return this.claims.unreserve(`${id.name}.lance/.lance-reserved`)
  }

  async close(): Promise<void> {}
}
