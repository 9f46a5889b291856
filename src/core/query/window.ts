/** Which rows of a view one read returns, and with what: every driver's page, scan and plan take it. */
export interface QueryWindow {
  /** Rows to skip (go to row = offset). */
  offset?: number
  /** Rows to return; absent = all (a search view: its `k`). */
  limit?: number
  /** Add `_rowid` to each row. */
  withRowId?: boolean
  /** Skip un-indexed data in a search (Lance's `fastSearch`). */
  fastSearch?: boolean
}
