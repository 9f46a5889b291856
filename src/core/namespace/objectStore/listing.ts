/** What one listing of a catalog root found (a read: nothing is written to find it). */
export interface RootListing {
  /** `<root>/__manifest/` holds at least one object. */
  manifest: boolean
  /** `<root>/<name>.lance/` directories exist. */
  tables: boolean
  /** Nothing at all under the root. */
  empty: boolean
}

/** Build a listing from the names a store answered: `<prefix>` children (one level) and `__manifest/` objects. */
export function listingOf(children: string[], manifestObjects: number, prefix: string): RootListing {
  const names = children.map((name) => name.slice(prefix.length).replace(/\/$/, ''))
  return {
    manifest: manifestObjects > 0 || names.includes('__manifest'),
    tables: names.some((name) => name.endsWith('.lance')),
    empty: names.length === 0 && manifestObjects === 0,
  }
}

/** The key prefix under which a catalog's objects live (`prefix/`, or '' for a whole bucket). */
export function keyPrefix(prefix: string): string {
  return prefix ? `${prefix}/` : ''
}
