import { AppError, type IndexJobInfo, type Input, type Method, type Output, type OptimizePreview } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
import { compareVersions } from './versions'
import { indexExists } from './errors'
import { schemaOf } from './schema'
import { namespaceContents } from './namespaces'
import { IndexJobs } from './indexJobs'

export interface LifecycleDeps {
  client: (connectionId: string) => NamespaceClient
  cancellable: <T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>) => Promise<T>
  /** Publishes `indexes/progress`. */
  emitIndexJob?: (job: IndexJobInfo) => void
}

type LifecycleMethod =
  | 'versions/list' | 'versions/compare' | 'versions/restore'
  | 'tags/list' | 'tags/create' | 'tags/delete' | 'tags/resolve'
  | 'indexes/list' | 'indexes/create' | 'indexes/drop' | 'indexes/start' | 'indexes/cancel' | 'indexes/jobs'
  | 'tables/stats' | 'tables/optimizePreview' | 'tables/optimize'
  | 'columns/add' | 'columns/alter' | 'columns/drop' | 'tables/createEmpty'
  | 'namespaces/describe' | 'namespaces/contents'

type LifecycleHandlers = { [M in LifecycleMethod & Method]: (input: Input<M>) => Promise<Output<M>> }

const idOf = (input: { namespace: string[]; name: string }): TableId => ({ namespace: input.namespace, name: input.name })

/**
 * Table lifecycle as the service exposes it: versions, tags, indexes, stats and maintenance, schema changes.
 * CatalogService spreads {@link handlers} into its own.
 */
export class LifecycleModule {
  readonly handlers: LifecycleHandlers
  /** Index builds shown in the jobs panel. */
  readonly indexJobs: IndexJobs

  constructor(private readonly deps: LifecycleDeps) {
    this.indexJobs = new IndexJobs({ emit: (job) => deps.emitIndexJob?.(job) })
    const c = (connectionId: string) => deps.client(connectionId)
    this.handlers = {
      'versions/list': async (i) => c(i.connectionId).listVersions(idOf(i)),
      'versions/compare': async (i) => {
        const client = c(i.connectionId)
        const [from, to] = await Promise.all([client.describeTable(idOf(i), { version: i.from }), client.describeTable(idOf(i), { version: i.to })])
        return compareVersions({ version: i.from, rowCount: from.rowCount, schema: from.fields }, { version: i.to, rowCount: to.rowCount, schema: to.fields })
      },
      'versions/restore': async (i) => {
        const client = c(i.connectionId)
        await client.restoreVersion(idOf(i), i.version)
        return { version: (await client.describeTable(idOf(i))).version }
      },
      'tags/list': async (i) => c(i.connectionId).listTags(idOf(i)),
      'tags/create': async (i) => {
        await c(i.connectionId).createTag(idOf(i), i.tag, i.version)
        return null
      },
      'tags/delete': async (i) => {
        await c(i.connectionId).deleteTag(idOf(i), i.tag)
        return null
      },
      'tags/resolve': async (i) => ({ version: await c(i.connectionId).tagVersion(idOf(i), i.tag) }),
      'indexes/list': async (i) => c(i.connectionId).listIndexes(idOf(i)),
      'indexes/create': async (i) => this.createIndex(i),
      'indexes/start': async (i) =>
        this.indexJobs.start({ client: c(i.connectionId), table: { connectionId: i.connectionId, namespace: i.namespace, name: i.name }, index: { ...i.index, name: i.index.name ?? `${i.index.column}_idx` } }),
      'indexes/cancel': async (i) => {
        this.indexJobs.cancel(i.jobId)
        return null
      },
      'indexes/jobs': async () => this.indexJobs.list(),
      'indexes/drop': async (i) => {
        await c(i.connectionId).dropIndex(idOf(i), i.index)
        return null
      },
      'tables/stats': async (i) => c(i.connectionId).tableStats(idOf(i)),
      'tables/optimizePreview': async (i) => this.optimizePreview(c(i.connectionId), idOf(i), i.pruneOlderThanDays),
      'tables/optimize': async (i) => c(i.connectionId).optimize(idOf(i), { pruneOlderThanDays: i.pruneOlderThanDays }),
      'columns/add': async (i) => ({ version: await c(i.connectionId).addColumns(idOf(i), i.columns) }),
      'columns/alter': async (i) => ({ version: await c(i.connectionId).alterColumns(idOf(i), i.alterations) }),
      'columns/drop': async (i) => ({ version: await c(i.connectionId).dropColumns(idOf(i), i.columns) }),
      'namespaces/describe': async (i) => c(i.connectionId).describeNamespace(i.namespace),
      'namespaces/contents': async (i) => namespaceContents(c(i.connectionId), i.namespace),
      'tables/createEmpty': async (i) => {
        const d = await c(i.connectionId).createEmptyTable(idOf(i), schemaOf(i.columns), { mode: 'create' })
        return { name: d.name, namespace: d.namespace, rowCount: d.rowCount, version: d.version, schema: d.fields }
      },
    }
  }

  /**
   * Lance cannot stop an index build once started (lancedb has no abort), so a cancel waits for the build
   * and then drops the new index: the table ends as it was (plus two versions that change no data).
   */
  private async createIndex(i: Input<'indexes/create'>): Promise<Output<'indexes/create'>> {
    const client = this.deps.client(i.connectionId)
    const id = idOf(i)
    const name = i.index.name ?? `${i.index.column}_idx`
    const before = await client.listIndexes(id)
    if (!i.index.replace && before.some((x) => x.name === name)) throw indexExists(name)
    const controller = { cancelled: false }
    try {
      await this.deps.cancellable(i.requestId, async (signal) => {
        signal.addEventListener('abort', () => (controller.cancelled = true), { once: true })
        await client.createIndex(id, { ...i.index, name })
      })
    } catch (error) {
      if (controller.cancelled && error instanceof AppError && error.code === 'cancelled') {
        await client.dropIndex(id, name).catch(() => undefined)
      }
      throw error
    }
    return client.listIndexes(id)
  }

  private async optimizePreview(client: NamespaceClient, id: TableId, pruneOlderThanDays: number | undefined): Promise<OptimizePreview> {
    const [stats, versions, indexes] = await Promise.all([client.tableStats(id), client.listVersions(id), client.listIndexes(id)])
    const cutoff = pruneOlderThanDays === undefined ? undefined : Date.now() - pruneOlderThanDays * 86_400_000
    const latest = versions.reduce((m, v) => Math.max(m, v.version), 0)
    return {
      // Compaction merges small fragments; one small fragment alone has nothing to merge with, unless rows were deleted.
      fragmentsToCompact: stats.smallFragments > 1 || (stats.deletedRows ?? 0) > 0 ? stats.smallFragments : 0,
      deletedRowsToPurge: stats.deletedRows ?? 0,
      versionsToRemove: cutoff === undefined ? [] : versions.filter((v) => v.version !== latest && v.tags.length === 0 && v.timestamp < cutoff).map((v) => v.version),
      indexesToUpdate: indexes.filter((x) => (x.unindexedRows ?? 0) > 0).map((x) => x.name),
    }
  }
}
