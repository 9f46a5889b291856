/**
 * Where name claims are kept: one small object per claimed name (named by its path under the catalog root, parts
 * joined with `/`), created only if absent. Every implementation
 * uses its store's own conditional write (a local `O_EXCL` create, Azure and S3 `If-None-Match: *`, GCS
 * `x-goog-if-generation-match: 0`), so of any
 * number of processes creating the same claim at once exactly one succeeds.
 */
export interface ClaimStore {
  /** Create the claim `key` holding `body`; its version tag, or null when it already exists. */
  create(key: string, body: string): Promise<string | null>
  /** The claim `key` as it is now (null when there is none); `ageMs` is measured by the store's own clock. */
  read(key: string): Promise<StoredClaim | null>
  /** Rewrite the claim only if it is still at `tag` (a lease renewal); the new tag, or null when it changed. */
  renew(key: string, tag: string, body: string): Promise<string | null>
  /** Remove the claim only if it is still at `tag`; true when it was removed. */
  remove(key: string, tag: string): Promise<boolean>
}

export interface StoredClaim {
  tag: string
  body: string
  /** Time since it was written or last renewed. */
  ageMs: number
}
