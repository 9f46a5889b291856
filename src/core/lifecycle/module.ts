import { AppError, type IndexJobInfo, type Input, type Method, type Output, type OptimizePreview, type RestorePreview, type TableRef, type IndexSpec } from '../../contract'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
import { compareVersions } from '../namespace/versions'
import { indexExists } from '../namespace/errors'
import { schemaOf } from './schema'
import { namespaceContents } from './namespaces'
import { IndexJobs } from './indexJobs'
import type { JobRegistry } from '../jobs'
import { indexTypeOf } from '../namespace/indexTypes'
import { retryConflicts, TableWrites } from './tableWrites'
import { assertLegacyAcknowledged, optimizeSaying } from './writeFormat'
import { assertFormatChoosable, catalogFormats } from '../namespace/dataFormats'

export interface LifecycleDeps {
  client: (connectionId: string) => NamespaceClient
  cancellable: <T>(requestId: string | undefined, work: (signal: AbortSignal) => Promise<T>) => Promise<T>
  /** The session's jobs, where index builds are listed, cancelled and published; a private one when absent. */
  jobs?: JobRegistry
}

type LifecycleMethod =
  | 'versions/list' | 'versions/compare' | 'versions/restore' | 'versions/restorePreview'
  | 'tags/list' | 'tags/create' | 'tags/delete' | 'tags/resolve'
  | 'indexes/list' | 'indexes/create' | 'indexes/drop' | 'indexes/start'
  | 'tables/stats' | 'tables/optimizePreview' | 'tables/optimize'
  | 'columns/add' | 'columns/alter' | 'columns/drop' | 'rows/delete' | 'tables/createEmpty' | 'tables/dataFormat' | 'catalog/dataFormats'
  | 'namespaces/describe' | 'namespaces/contents'

type LifecycleHandlers = { [M in LifecycleMethod & Method]: (input: Input<M>) => Promise<Output<M>> }

const idOf = (input: { namespace: string[]; name: string }): TableId => ({ namespace: input.namespace, name: input.name })
const refOf = (input: { connectionId: string; namespace: string[]; name: string }): TableRef => ({ connectionId: input.connectionId, namespace: [...input.namespace], name: input.name })

/**
 * Table lifecycle as the service exposes it: versions, tags, indexes, stats and maintenance, schema changes.
 * CatalogService spreads {@link handlers} into its own.
 */
export class LifecycleModule {
  readonly handlers: LifecycleHandlers
  /** Index builds shown in the jobs panel. */
  readonly indexJobs: IndexJobs
  /** Writes to one table run one at a time; other writes are refused while an index build runs (tableWrites.ts). */
  readonly writes = new TableWrites()

  constructor(private readonly deps: LifecycleDeps) {
    this.indexJobs = new IndexJobs({ jobs: deps.jobs, writes: this.writes })
    const c = (connectionId: string) => deps.client(connectionId)
    /** A short write: after the table's earlier writes, refused during an index build, retried on a commit conflict. */
    const write = <T>(i: { connectionId: string; namespace: string[]; name: string }, operation: string, work: () => Promise<T>): Promise<T> =>
      this.writes.write(refOf(i), operation, () => retryConflicts(operation, work))
    this.handlers = {
      'versions/list': async (i) => c(i.connectionId).listVersions(idOf(i)),
      'versions/compare': async (i) => {
        const client = c(i.connectionId)
        const [from, to] = await Promise.all([client.describeTable(idOf(i), { version: i.from }), client.describeTable(idOf(i), { version: i.to })])
        return compareVersions({ version: i.from, rowCount: from.rowCount, schema: from.fields }, { version: i.to, rowCount: to.rowCount, schema: to.fields })
      },
      'versions/restore': async (i) => this.restore(i),
      'versions/restorePreview': async (i) => this.restorePreview(c(i.connectionId), refOf(i), i.version),
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
      'indexes/create': async (i) => {
        await assertLegacyAcknowledged(c(i.connectionId), idOf(i), i.acknowledgeLegacy, 'building an index on it')
        return this.createIndex(i)
      },
      'indexes/start': async (i) => {
        await assertLegacyAcknowledged(c(i.connectionId), idOf(i), i.acknowledgeLegacy, 'building an index on it')
        return this.indexJobs.start({ client: c(i.connectionId), table: { connectionId: i.connectionId, namespace: i.namespace, name: i.name }, index: { ...i.index, name: i.index.name ?? `${i.index.column}_idx` } })
      },
      'indexes/drop': async (i) => {
        await write(i, 'dropping an index', () => c(i.connectionId).dropIndex(idOf(i), i.index))
        return null
      },
      'tables/stats': async (i) => c(i.connectionId).tableStats(idOf(i)),
      'tables/optimizePreview': async (i) => ({
        ...(await this.optimizePreview(c(i.connectionId), idOf(i), i.pruneOlderThanDays)),
        indexBuildsRunning: this.writes.builds(refOf(i)),
        dataFormat: (await c(i.connectionId).tableDataFormat?.(idOf(i))) ?? null,
      }),
      'tables/optimize': async (i) => {
        const client = c(i.connectionId)
        await assertLegacyAcknowledged(client, idOf(i), i.acknowledgeLegacy, 'optimizing it')
        return write(i, 'optimize', () => optimizeSaying(client, idOf(i), i.pruneOlderThanDays))
      },
      'tables/dataFormat': async (i) => ({ format: (await c(i.connectionId).tableDataFormat?.(idOf(i))) ?? null }),
      'catalog/dataFormats': async (i) => catalogFormats(c(i.connectionId)),
      'columns/add': async (i) => ({ version: await write(i, 'adding columns', () => c(i.connectionId).addColumns(idOf(i), i.columns)) }),
      'columns/alter': async (i) => ({ version: await write(i, 'changing columns', () => c(i.connectionId).alterColumns(idOf(i), i.alterations)) }),
      'columns/drop': async (i) => ({ version: await write(i, 'dropping columns', () => c(i.connectionId).dropColumns(idOf(i), i.columns)) }),
      'rows/delete': async (i) =>
        write(i, 'deleting rows', async () => {
          const client = c(i.connectionId)
          // Counted through the view's checks first: a filter that does not parse, or names no column, deletes nothing.
          const deleted = await client.countRows(idOf(i), { view: { filter: i.filter } })
          return { version: deleted === 0 ? (await client.describeTable(idOf(i))).version : await client.deleteRows(idOf(i), i.filter), deleted }
        }),
      'namespaces/describe': async (i) => c(i.connectionId).describeNamespace(i.namespace),
      'namespaces/contents': async (i) => namespaceContents(c(i.connectionId), i.namespace),
      'tables/createEmpty': async (i) => {
        assertFormatChoosable(c(i.connectionId), i.dataFormat)
        const d = await c(i.connectionId).createEmptyTable(idOf(i), schemaOf(i.columns), { mode: 'create', dataFormat: i.dataFormat })
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
        await this.writes.build(refOf(i), name, () => retryConflicts(`the build of index ${name}`, () => client.createIndex(id, { ...i.index, name })))
      })
    } catch (error) {
      if (controller.cancelled && error instanceof AppError && error.code === 'cancelled') {
        await client.dropIndex(id, name).catch(() => undefined)
      }
      throw error
    }
    return client.listIndexes(id)
  }

  /**
   * Lance's restore writes the chosen version's manifest as the new latest one, indexes included: the indexes
   * that version had come back (valid: they index its fragments), those made since are gone. The preview says
   * which, so the confirmation can tell the truth and offer to rebuild the lost ones.
   */
  private async restorePreview(client: NamespaceClient, table: TableRef, version: number): Promise<RestorePreview> {
    const id: TableId = { namespace: table.namespace, name: table.name }
    const [latestIndexes, target, versions] = await Promise.all([client.listIndexes(id), client.describeTable(id, { version, indexes: true }), client.listVersions(id)])
    if (target.indexes === undefined) throw new AppError('unsupported', `The indexes of version ${version} cannot be listed on this connection`)
    const then = new Set(target.indexes.map((x) => x.name))
    const now = new Set(latestIndexes.map((x) => x.name))
    const columns = new Set(target.fields.map((f) => f.name))
    const latest = versions.reduce((m, v) => Math.max(m, v.version), 0)
    const rowCount = versions.find((v) => v.version === version)?.rowCount ?? target.rowCount
    return {
      version,
      latest,
      rowCount,
      kept: latestIndexes.filter((x) => then.has(x.name)).map((x) => x.name),
      lost: latestIndexes
        .filter((x) => !then.has(x.name))
        .map((x) => {
          const base = { name: x.name, type: x.type, columns: [...x.columns] }
          const rebuild = x.rebuild ?? fallbackRebuild(x)
          if (!rebuild) return { ...base, rebuild: null, reason: indexTypeOf(x.type) ? 'the app cannot tell how it was built' : `the app does not build ${x.type} indexes` }
          if (!columns.has(rebuild.column)) return { ...base, rebuild: null, reason: `version ${version} has no column ${rebuild.column}` }
          return { ...base, rebuild }
        }),
      back: target.indexes.filter((x) => !now.has(x.name)).map((x) => x.name),
      indexBuildsRunning: this.writes.builds(table),
    }
  }

  /** Restore, then rebuild the lost indexes asked for as index jobs (queued one after another on the table). */
  private async restore(i: Input<'versions/restore'>): Promise<Output<'versions/restore'>> {
    const client = this.deps.client(i.connectionId)
    const table = refOf(i)
    const asked = new Set(i.rebuildIndexes ?? [])
    const preview = asked.size > 0 ? await this.restorePreview(client, table, i.version) : undefined
    const rebuilds = (preview?.lost ?? []).filter((x) => asked.has(x.name))
    const unknown = [...asked].filter((name) => !rebuilds.some((x) => x.name === name))
    if (unknown.length > 0) throw new AppError('invalid_input', `Not an index that the restore would remove: ${unknown.join(', ')}`)
    const cannot = rebuilds.find((x) => x.rebuild === null)
    if (cannot) throw new AppError('invalid_input', `Index ${cannot.name} cannot be rebuilt: ${cannot.reason ?? 'unknown build'}`)
    await this.writes.write(table, 'restore', () => retryConflicts('the restore', () => client.restoreVersion(idOf(i), i.version)))
    const version = (await client.describeTable(idOf(i))).version
    const jobs: IndexJobInfo[] = []
    for (const x of rebuilds) jobs.push(await this.indexJobs.start({ client, table, index: { ...x.rebuild!, name: x.name } }))
    return { version, jobs }
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

/** Without Lance's recorded settings (a REST server lists type and columns only): the type, column, name and metric. */
function fallbackRebuild(x: { name: string; type: string; columns: string[]; distanceType?: string }): IndexSpec | null {
  const type = indexTypeOf(x.type)
  if (!type || x.columns.length !== 1) return null
  const metric = x.distanceType?.toLowerCase()
  return { type, column: x.columns[0]!, name: x.name, ...(metric === 'l2' || metric === 'cosine' || metric === 'dot' ? { distanceType: metric } : {}) }
}
