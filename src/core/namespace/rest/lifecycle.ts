import { AppError } from '../../../contract'
import type { ColumnAlteration, IndexInfo, IndexSpec, NewColumn, OptimizeResult, TableStats, TagInfo, VersionInfo } from '../../../contract/lifecycle'
import type { CallOptions } from '../client'
import { assertComponent, assertTableId, formatTableId, type TableId } from '../path'
import type { RequestSpec } from './http'
import { splitOf, versionInfos } from '../versions'

export interface RestLifecycleDeps {
  json: <T>(options: CallOptions, spec: Omit<RequestSpec, 'signal'>) => Promise<T>
  /** The encoded `{id}` path component. */
  tableId: (id: TableId) => string
}

interface WireVersion {
  version: number
  timestamp_millis?: number
  metadata?: Record<string, string> | null
}

/** Longest version listing followed (pages of the server's size). */
const MAX_VERSION_PAGES = 1000

/**
 * The lifecycle routes of the REST namespace contract (rest-contract.md §3.2–3.4): versions, tags, indexes,
 * stats, add/alter/drop columns. The contract has no optimize route, so optimize is "unsupported".
 */
export class RestLifecycle {
  constructor(private readonly deps: RestLifecycleDeps) {}

  private post<T>(id: TableId, options: CallOptions, operation: RequestSpec['operation'], what: string, route: string, body: Record<string, unknown> = {}, idempotent = false, query?: RequestSpec['query']): Promise<T> {
    assertTableId(id)
    return this.deps.json<T>(options, {
      operation,
      what: `${what} of ${formatTableId(id)}`,
      method: 'POST',
      path: `/v1/table/${this.deps.tableId(id)}/${route}`,
      json: { id: [...id.namespace, id.name], ...body },
      idempotent,
      ...(query ? { query } : {}),
    })
  }

  async listVersions(id: TableId, options: CallOptions): Promise<VersionInfo[]> {
    const all: WireVersion[] = []
    let pageToken: string | undefined
    for (let i = 0; i < MAX_VERSION_PAGES; i++) {
      const r = await this.post<{ versions: WireVersion[]; page_token?: string | null }>(id, options, 'table.versions', 'list the versions', 'version/list', {}, true, pageToken ? { page_token: pageToken } : undefined)
      all.push(...r.versions)
      if (!r.page_token || r.page_token === pageToken) break
      pageToken = r.page_token
    }
    const tags = await this.listTags(id, options).catch(() => [])
    return versionInfos(all.map((v) => ({ version: v.version, timestamp: v.timestamp_millis ?? 0, metadata: v.metadata ?? {} })), tags)
  }

  async listTags(id: TableId, options: CallOptions): Promise<TagInfo[]> {
    const r = await this.post<{ tags: Record<string, { version: number }> }>(id, options, 'table.tags', 'list the tags', 'tags/list', {}, true)
    return Object.entries(r.tags ?? {})
      .map(([name, t]) => ({ name, version: t.version }))
      .sort((a, b) => a.name.localeCompare(b.name))
  }

  async createTag(id: TableId, tag: string, version: number, options: CallOptions): Promise<void> {
    assertComponent(tag, 'tag')
    await this.post(id, options, 'table.tagWrite', `create the tag ${tag}`, 'tags/create', { tag, version })
  }

  async deleteTag(id: TableId, tag: string, options: CallOptions): Promise<void> {
    await this.post(id, options, 'table.tagWrite', `delete the tag ${tag}`, 'tags/delete', { tag })
  }

  async tagVersion(id: TableId, tag: string, options: CallOptions): Promise<number> {
    return (await this.post<{ version: number }>(id, options, 'table.tags', `resolve the tag ${tag}`, 'tags/version', { tag }, true)).version
  }

  async listIndexes(id: TableId, options: CallOptions): Promise<IndexInfo[]> {
    const r = await this.post<{ indexes: { index_name: string; columns: string[]; index_type?: string; num_indexed_rows?: number; num_unindexed_rows?: number }[] }>(
      id,
      options,
      'table.indexes',
      'list the indexes',
      'index/list',
      {},
      true,
    )
    return r.indexes.map((i) => ({
      name: i.index_name,
      type: i.index_type ?? 'unknown',
      columns: i.columns,
      ...(typeof i.num_indexed_rows === 'number' ? { indexedRows: i.num_indexed_rows } : {}),
      ...(typeof i.num_unindexed_rows === 'number' ? { unindexedRows: i.num_unindexed_rows } : {}),
    }))
  }

  async createIndex(id: TableId, spec: IndexSpec, options: CallOptions): Promise<void> {
    const scalar = spec.type === 'BTREE' || spec.type === 'BITMAP' || spec.type === 'LABEL_LIST'
    const body = Object.fromEntries(
      Object.entries({
        column: spec.column,
        index_type: spec.type,
        name: spec.name,
        distance_type: spec.distanceType,
        num_partitions: spec.numPartitions,
        num_sub_vectors: spec.numSubVectors,
        num_bits: spec.numBits,
        m: spec.m,
        ef_construction: spec.efConstruction,
        with_position: spec.withPosition,
        language: spec.language,
        lower_case: spec.lowerCase,
        stem: spec.stem,
        remove_stop_words: spec.removeStopWords,
      }).filter(([, v]) => v !== undefined),
    )
    await this.post(id, options, 'table.createIndex', `create an index on ${spec.column}`, scalar ? 'create_scalar_index' : 'create_index', body)
  }

  async dropIndex(id: TableId, name: string, options: CallOptions): Promise<void> {
    await this.post(id, options, 'table.dropIndex', `drop the index ${name}`, `index/${encodeURIComponent(name)}/drop`)
  }

  async tableStats(id: TableId, options: CallOptions): Promise<TableStats> {
    const [s, versions] = await Promise.all([
      this.post<{ total_bytes: number; num_rows: number; num_indices: number; fragment_stats: { num_fragments: number; num_small_fragments: number } }>(id, options, 'table.stats', 'read the stats', 'stats', {}, true),
      this.post<{ versions: WireVersion[] }>(id, options, 'table.versions', 'list the versions', 'version/list', {}, true).catch(() => ({ versions: [] as WireVersion[] })),
    ])
    const latest = versions.versions.reduce<WireVersion | undefined>((a, v) => (!a || v.version > a.version ? v : a), undefined)
    const deleted = Number(latest?.metadata?.total_deletion_file_rows)
    const onDisk = Number(latest?.metadata?.total_files_size)
    return {
      rows: s.num_rows,
      fragments: s.fragment_stats.num_fragments,
      smallFragments: s.fragment_stats.num_small_fragments,
      ...(Number.isFinite(deleted) ? { deletedRows: deleted, ...(latest ? splitOf(versions.versions.map((v) => ({ version: v.version, timestamp: v.timestamp_millis ?? 0, metadata: v.metadata ?? {} })), latest.version) : {}) } : {}),
      bytes: Number.isFinite(onDisk) ? onDisk : s.total_bytes,
      indexes: s.num_indices,
      version: latest?.version ?? 0,
      versions: versions.versions.length,
    }
  }

  async optimize(_id: TableId, _options: CallOptions): Promise<OptimizeResult> {
    throw new AppError('unsupported', 'The REST namespace contract has no optimize route', { hint: 'Optimize the table where it is stored' })
  }

  async addColumns(id: TableId, columns: NewColumn[], options: CallOptions): Promise<number> {
    const r = await this.post<{ version: number }>(id, options, 'table.alterSchema', 'add columns', 'add_columns', { new_columns: columns.map((c) => ({ name: c.name, expression: c.expression })) })
    return r.version
  }

  async alterColumns(id: TableId, alterations: ColumnAlteration[], options: CallOptions): Promise<number> {
    const wire = alterations.map((a) =>
      Object.fromEntries(Object.entries({ path: a.path, rename: a.rename, nullable: a.nullable, data_type: a.dataType ? { type: a.dataType } : undefined }).filter(([, v]) => v !== undefined)),
    )
    const r = await this.post<{ version: number }>(id, options, 'table.alterSchema', 'alter columns', 'alter_columns', { alterations: wire })
    return r.version
  }

  async dropColumns(id: TableId, names: string[], options: CallOptions): Promise<number> {
    const r = await this.post<{ version: number }>(id, options, 'table.alterSchema', 'drop columns', 'drop_columns', { columns: names })
    return r.version
  }

  /** `POST /v1/table/{id}/delete` (the REST namespace contract's DeleteFromTable). */
  async deleteRows(id: TableId, predicate: string, options: CallOptions): Promise<number> {
    const r = await this.post<{ version: number }>(id, options, 'table.deleteRows', 'delete rows', 'delete', { predicate })
    return r.version
  }
}
