import { AppError, type Input, type Output } from '../../contract'
import type { Handlers } from '../handlers'
import type { NamespaceClient } from '../namespace/client'
import { MemorySqlHistoryStore, withEntry, type SqlHistoryStore } from './history'

type SqlMethod = Extract<keyof Handlers, `sql/${string}`>

export interface SqlModuleDeps {
  client: (connectionId: string) => NamespaceClient
  /** Where a connection's catalog lives: its history is kept under it (connection ids change between runs). */
  location: (connectionId: string) => string | undefined
  history?: SqlHistoryStore
}

/**
 * SQL over a catalog (`sql/*`): DuckDB in this process reads the catalog's tables by name through our own scans
 * (src/core/sql/engine.ts), kept queries are paged from its streaming result, and the query history is kept in the
 * settings per catalog.
 */
export class SqlModule {
  private readonly history: SqlHistoryStore

  constructor(private readonly deps: SqlModuleDeps) {
    this.history = deps.history ?? new MemorySqlHistoryStore()
  }

  private historyKey(connectionId: string): string {
    const location = this.deps.location(connectionId)
    if (location === undefined) throw new AppError('not_found', `No open connection ${connectionId}`)
    return location
  }

  async historyList({ connectionId }: Input<'sql/history/list'>): Promise<Output<'sql/history/list'>> {
    return this.history.sqlHistoryOf(this.historyKey(connectionId))
  }

  async historyAdd({ connectionId, entry }: Input<'sql/history/add'>): Promise<null> {
    const key = this.historyKey(connectionId)
    await this.history.setSqlHistory(key, withEntry(await this.history.sqlHistoryOf(key), entry))
    return null
  }

  async historyClear({ connectionId }: Input<'sql/history/clear'>): Promise<null> {
    await this.history.setSqlHistory(this.historyKey(connectionId), [])
    return null
  }

  get handlers(): Pick<Handlers, SqlMethod> {
    const notYet = async (): Promise<never> => {
      throw new AppError('unsupported', 'The SQL engine is not built yet')
    }
    return {
      'sql/run': notYet,
      'sql/page': notYet,
      'sql/status': notYet,
      'sql/cancel': notYet,
      'sql/close': notYet,
      'sql/explain': notYet,
      'sql/names': notYet,
      'sql/history/list': (input) => this.historyList(input),
      'sql/history/add': (input) => this.historyAdd(input),
      'sql/history/clear': (input) => this.historyClear(input),
      'sql/saveAsTable': notYet,
    }
  }
}
