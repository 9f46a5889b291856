import { tableFromIPC } from 'apache-arrow'
import type { PageSource } from '../table'
import { call } from '../../api'

/**
 * A kept query's result as the grid's page source: rows through `sql/page` (which waits for them while the query
 * still runs). The query id is the rows' identity: a new run is a fresh page cache, scroll and selection.
 */
export function queryPageSource(queryId: string): PageSource {
  const page: PageSource['page'] = async (offset, limit, signal) => {
    const bytes = await call('sql/page', { queryId, offset, limit }, signal)
    // apache-arrow decodes in place only from an aligned buffer (see api/index.ts, `aligned`).
    return tableFromIPC(bytes.byteOffset % 8 === 0 ? bytes : bytes.slice())
  }
  return {
    key: queryId,
    initialPage: () => undefined,
    page,
    // A copy reads whole rows: a result has no projection of its own, and the copy picks its columns by name.
    rows: (offset, limit, _columns, signal) => page(offset, limit, signal),
  }
}
