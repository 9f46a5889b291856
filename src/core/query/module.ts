import type { Input, QueryPlan, TableViewSpec } from '../../contract'

type TableRef = { namespace: string[]; name: string }

/**
 * What the table-view use-cases need of a connection's client. Named here rather than taken from the namespace
 * drivers, which build on the engine-free query code of this folder: every NamespaceClient has it.
 */
export interface ViewReader {
  countRows(id: TableRef, options?: { view?: TableViewSpec; signal?: AbortSignal }): Promise<number>
  latestVersion(id: TableRef): Promise<number>
  explainQuery(id: TableRef, view: TableViewSpec, options?: { analyze?: boolean }): Promise<string>
}

export interface QueryModuleDeps {
  client(connectionId: string): ViewReader
  /** Run `work` with an AbortSignal that `requests/cancel` can trigger. */
  cancellable<T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T>
}

/**
 * Lance's physical plan names an index search `ANNSubIndex` / `ANNIvfPartition`, an exact scan `KNNVectorDistance`
 * (also used when the index's metric differs from the one asked for: Lance then falls back to brute force).
 */
export function planUsesVectorIndex(plan: string): boolean {
  return /\bANN(SubIndex|IvfPartition)\b/.test(plan)
}

/** The table-view use-cases the contract exposes (counts, plans, versions); CatalogService spreads {@link handlers}. */
export class QueryModule {
  constructor(private readonly deps: QueryModuleDeps) {}

  readonly handlers = {
    'tables/count': ({ connectionId, namespace, name, view, requestId }: Input<'tables/count'>) =>
      this.deps.cancellable(requestId, (signal) => this.deps.client(connectionId).countRows({ namespace, name }, { view, signal })),
    'tables/latestVersion': ({ connectionId, namespace, name }: Input<'tables/latestVersion'>) => this.deps.client(connectionId).latestVersion({ namespace, name }),
    'tables/explain': async ({ connectionId, namespace, name, view, analyze }: Input<'tables/explain'>): Promise<QueryPlan> => {
      const plan = await this.deps.client(connectionId).explainQuery({ namespace, name }, view as TableViewSpec, { analyze })
      return view.search?.kind === 'vector' ? { plan, usesVectorIndex: planUsesVectorIndex(plan) } : { plan }
    },
  }
}
