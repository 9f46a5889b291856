import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, indexSpecSchema, indexTypes, type IndexSpec } from '../../contract'
import { castTypes } from '../../contract/lifecycle'
import { DirNamespaceClient, indexExists, indexNotFound, versionNotFound, WireCodedError, type TableId } from '../../core/namespace'
import { readArrowBody } from '../arrowBody'
import type { Catalog } from '../catalogs'
import { tableOf } from '../ids'
import type { RouteContext } from './context'
import { invalid } from '../wireErrors'

const isInt = (v: unknown, min = 0): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= min

/**
 * The table-lifecycle routes of the REST namespace contract (rest-contract.md §3.2–3.4) over a directory
 * catalog: versions, tags, indexes, stats, schema changes, update / delete / merge-insert.
 * Writes go through the catalog's write lock and forget cached descriptions.
 */
export function registerLifecycleRoutes(app: FastifyInstance, deps: RouteContext): void {
  registerVersionRoutes(app, deps)
  registerTagAndBranchRoutes(app, deps)
  registerIndexRoutes(app, deps)
  registerStatsAndSchemaRoutes(app, deps)
  registerRowWriteRoutes(app, deps)
}

/** Runs `work` on the request's table under its catalog's write lock, then forgets the table's cached description. */
const writer =
  (catalogOf: RouteContext['catalogOf']) =>
  async <T>(request: FastifyRequest, work: (catalog: Catalog, id: TableId) => Promise<T>): Promise<T> => {
    const id = tableOf(request)
    const catalog = catalogOf(request)
    return catalog.write(() => work(catalog, id)).finally(() => catalog.forget(id))
  }

/** The catalog's Lance tables, for what only the directory catalog does (row-level writes, branches, index stats). */
const lance = (catalog: Catalog): Pick<DirNamespaceClient, 'onTable'> => {
  if (!(catalog.client instanceof DirNamespaceClient)) throw new AppError('unsupported', 'This catalog does not support row-level writes')
  return catalog.client
}

const string = (b: Record<string, unknown>, key: string): string => {
  const v = b[key]
  if (typeof v !== 'string' || v === '') throw invalid(`${key} is required`)
  return v
}

/** Versions: list and describe; creating or deleting chosen versions is refused in words. */
function registerVersionRoutes(app: FastifyInstance, deps: RouteContext): void {
  const { catalogOf, json, body, read } = deps

  const wireVersion = (v: { version: number; timestamp: number; totals?: Record<string, string> }) => ({
    version: v.version,
    // Relative to the table: never a server path.
    manifest_path: `_versions/${v.version}.manifest`,
    timestamp_millis: v.timestamp,
    ...(v.totals ? { metadata: v.totals } : {}),
  })

  app.post('/v1/table/:id/version/list', read, async (request, reply) => {
    const versions = await catalogOf(request).client.listVersions(tableOf(request))
    const descending = (request.query as Record<string, string | undefined>).descending === 'true'
    const ordered = descending ? [...versions].reverse() : versions
    return json(reply, { versions: ordered.map(wireVersion) })
  })

  app.post('/v1/table/:id/version/describe', read, async (request, reply) => {
    const id = tableOf(request)
    const wanted = body(request).version
    if (wanted !== undefined && wanted !== null && !isInt(wanted, 1)) throw invalid('version must be a whole number ≥ 1')
    const versions = await catalogOf(request).client.listVersions(id)
    const found = wanted === undefined || wanted === null ? versions[versions.length - 1] : versions.find((v) => v.version === wanted)
    if (!found) throw versionNotFound(id, Number(wanted ?? 0))
    return json(reply, { version: wireVersion(found) })
  })

  // Managed versioning (Lance committing through the namespace, an external manifest store) is not something this
  // server offers (it never answers `managed_versioning: true`), and lancedb 0.31.0 has no call to commit a manifest
  // a client wrote elsewhere as a table version, nor to delete chosen versions (only `optimize`'s age-based cleanup).
  const managedVersioning = (what: string) => async (request: FastifyRequest) => {
    if (what !== 'batch-create') tableOf(request)
    throw new AppError('unsupported', `This server cannot ${what === 'delete' ? 'delete chosen table versions' : 'commit a client-written manifest as a table version'}: it does not use managed versioning (describe never answers managed_versioning), and lancedb 0.31.0 has no call for it; versions are made by writing to the table${what === 'delete' ? ', and old ones removed by optimize' : ''}`)
  }
  app.post('/v1/table/:id/version/create', managedVersioning('create'))
  app.post('/v1/table/version/batch-create', managedVersioning('batch-create'))
  app.post('/v1/table/:id/version/delete', managedVersioning('delete'))

}

/** Tags and branches. */
function registerTagAndBranchRoutes(app: FastifyInstance, deps: RouteContext): void {
  const { catalogOf, json, body, read } = deps
  const write = writer(catalogOf)

  const listTags = async (request: FastifyRequest, reply: FastifyReply) => {
    const tags = await catalogOf(request).client.listTags(tableOf(request))
    // `manifestSize` is required by the contract; the directory catalog does not report it (0 = unknown).
    return json(reply, { tags: Object.fromEntries(tags.map((t) => [t.name, { version: t.version, manifestSize: 0 }])) })
  }
  app.post('/v1/table/:id/tags/list', read, listTags)
  app.get('/v1/table/:id/tags/list', read, listTags)

  app.post('/v1/table/:id/tags/version', read, async (request, reply) => {
    const version = await catalogOf(request).client.tagVersion(tableOf(request), string(body(request), 'tag'))
    return json(reply, { version })
  })

  const tagWrite = (kind: 'create' | 'update') => async (request: FastifyRequest, reply: FastifyReply) => {
    const b = body(request)
    const tag = string(b, 'tag')
    if (!isInt(b.version, 1)) throw invalid('version must be a whole number ≥ 1')
    const version = b.version
    await write(request, async (catalog, id) => {
      if (kind === 'update') await catalog.client.deleteTag(id, tag)
      await catalog.client.createTag(id, tag, version)
    })
    return json(reply, {})
  }
  app.post('/v1/table/:id/tags/create', tagWrite('create'))
  app.post('/v1/table/:id/tags/update', tagWrite('update'))

  app.post('/v1/table/:id/tags/delete', async (request, reply) => {
    const tag = string(body(request), 'tag')
    await write(request, (catalog, id) => catalog.client.deleteTag(id, tag))
    return json(reply, {})
  })

  // Branches (lancedb's Table.branches()).

  const branchesOf = async (catalog: Catalog, id: TableId) => lance(catalog).onTable(id, async (t) => ({ t, branches: await (await t.branches()).list() }))
  const listBranches = async (request: FastifyRequest, reply: FastifyReply) => {
    const { branches } = await branchesOf(catalogOf(request), tableOf(request))
    return json(reply, {
      branches: Object.fromEntries(
        Object.entries(branches).map(([name, b]) => [
          name,
          // `createAt` is required by the contract; lancedb does not report it (0 = unknown).
          { parentVersion: b.parentVersion, createAt: 0, manifestSize: b.manifestSize, ...(b.parentBranch ? { parentBranch: b.parentBranch } : {}) },
        ]),
      ),
    })
  }
  app.post('/v1/table/:id/branches/list', read, listBranches)
  app.get('/v1/table/:id/branches/list', read, listBranches)

  app.post('/v1/table/:id/branches/create', async (request, reply) => {
    const b = body(request)
    const name = string(b, 'name')
    if (!/^[A-Za-z0-9_.-]{1,128}$/.test(name)) throw invalid('name must be 1–128 letters, digits, _ . -')
    const fromBranch = typeof b.from_branch === 'string' && b.from_branch !== '' ? b.from_branch : undefined
    if (b.from_version !== undefined && b.from_version !== null && !isInt(b.from_version, 1)) throw invalid('from_version must be a whole number ≥ 1')
    const fromVersion = isInt(b.from_version, 1) ? b.from_version : undefined
    await write(request, async (catalog, id) => {
      const { t, branches } = await branchesOf(catalog, id)
      if (branches[name]) throw new WireCodedError('already_exists', `Branch "${name}" already exists`, 23)
      if (fromBranch && !branches[fromBranch]) throw new WireCodedError('not_found', `Branch "${fromBranch}" does not exist`, 22)
      if (fromVersion !== undefined && !fromBranch && !(await t.listVersions()).some((v) => v.version === fromVersion)) throw versionNotFound(id, fromVersion)
      await (await t.branches()).create(name, fromBranch, fromVersion)
    })
    return json(reply, {})
  })

  app.post('/v1/table/:id/branches/delete', async (request, reply) => {
    const name = string(body(request), 'name')
    await write(request, async (catalog, id) => {
      const { t, branches } = await branchesOf(catalog, id)
      if (!branches[name]) throw new WireCodedError('not_found', `Branch "${name}" does not exist`, 22)
      await (await t.branches()).delete(name)
    })
    return json(reply, {})
  })

}

/** Indexes: create (vector or scalar), list (now or at a version), stats, drop. */
function registerIndexRoutes(app: FastifyInstance, deps: RouteContext): void {
  const { catalogOf, json, body, read } = deps
  const write = writer(catalogOf)

  const createIndex = (scalarOnly: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    const b = body(request)
    if (typeof b.index_type !== 'string' || b.index_type === '') throw invalid(`index_type is required (one of ${indexTypes.join(', ')})`)
    const type = b.index_type.toUpperCase()
    const normalized = type === 'INVERTED' ? 'FTS' : type === 'SCALAR' ? 'BTREE' : type
    if (!(indexTypes as readonly string[]).includes(normalized)) throw new AppError('unsupported', `This server does not build ${type || 'that kind of'} indexes; it builds ${indexTypes.join(', ')}`)
    if (scalarOnly && !['BTREE', 'BITMAP', 'LABEL_LIST', 'FTS'].includes(normalized)) throw invalid(`${normalized} is not a scalar index; use create_index`)
    const parsed = indexSpecSchema.safeParse({
      column: b.column,
      type: normalized,
      name: b.name ?? undefined,
      distanceType: b.distance_type ?? undefined,
      numPartitions: b.num_partitions ?? undefined,
      numSubVectors: b.num_sub_vectors ?? undefined,
      numBits: b.num_bits ?? undefined,
      m: b.m ?? undefined,
      efConstruction: b.ef_construction ?? undefined,
      withPosition: b.with_position ?? undefined,
      language: b.language ?? undefined,
      stem: b.stem ?? undefined,
      removeStopWords: b.remove_stop_words ?? undefined,
      lowerCase: b.lower_case ?? undefined,
    })
    if (!parsed.success) throw invalid(`Invalid index request: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`)
    const spec: IndexSpec = parsed.data
    await write(request, async (catalog, id) => {
      const name = spec.name ?? `${spec.column}_idx`
      if ((await catalog.client.listIndexes(id)).some((x) => x.name === name)) {
        throw indexExists(name)
      }
      await catalog.client.createIndex(id, { ...spec, name })
    })
    return json(reply, {})
  }
  app.post('/v1/table/:id/create_index', createIndex(false))
  app.post('/v1/table/:id/create_scalar_index', createIndex(true))

  app.post('/v1/table/:id/index/list', read, async (request, reply) => {
    const id = tableOf(request)
    const catalog = catalogOf(request)
    const version = body(request).version
    if (version !== undefined && version !== null) {
      // The indexes of an older version (what a restore of it would bring back): listed from its manifest.
      if (!isInt(version, 1)) throw invalid('version must be a whole number ≥ 1')
      const described = await catalog.client.describeTable(id, { version, indexes: true })
      return json(reply, {
        indexes: (described.indexes ?? []).map((x) => ({ index_name: x.name, index_uuid: '', columns: [...x.columns], status: 'ready', index_type: x.type })),
      })
    }
    const indexes = await lance(catalog).onTable(id, async (t) => {
      const configs = await t.listIndices()
      return Promise.all(configs.map(async (c) => ({ c, s: await t.indexStats(c.name) })))
    })
    return json(reply, {
      indexes: indexes.map(({ c, s }) => ({
        index_name: c.name,
        index_uuid: (c as { indexUuid?: string }).indexUuid ?? '',
        columns: [...c.columns],
        status: s && s.numUnindexedRows > 0 ? 'partial' : 'ready',
        index_type: s?.indexType ?? c.indexType,
        ...(s ? { num_indexed_rows: s.numIndexedRows, num_unindexed_rows: s.numUnindexedRows } : {}),
      })),
    })
  })

  app.post('/v1/table/:id/index/:index_name/stats', read, async (request, reply) => {
    const id = tableOf(request)
    const name = (request.params as { index_name: string }).index_name
    const stats = await lance(catalogOf(request)).onTable(id, (t) => t.indexStats(name))
    if (!stats) {
      throw indexNotFound(name)
    }
    return json(reply, {
      index_type: stats.indexType,
      num_indexed_rows: stats.numIndexedRows,
      num_unindexed_rows: stats.numUnindexedRows,
      ...(stats.distanceType ? { distance_type: stats.distanceType } : {}),
      ...(stats.numIndices !== undefined ? { num_indices: stats.numIndices } : {}),
    })
  })

  app.post('/v1/table/:id/index/:index_name/drop', async (request, reply) => {
    const name = (request.params as { index_name: string }).index_name
    await write(request, (catalog, id) => catalog.client.dropIndex(id, name))
    return json(reply, {})
  })

}

/** Table stats and schema changes (add, alter, drop columns). */
function registerStatsAndSchemaRoutes(app: FastifyInstance, deps: RouteContext): void {
  const { catalogOf, json, body, read } = deps
  const write = writer(catalogOf)

  app.post('/v1/table/:id/stats', read, async (request, reply) => {
    const stats = await lance(catalogOf(request)).onTable(tableOf(request), (t) => t.stats())
    return json(reply, {
      total_bytes: stats.totalBytes,
      num_rows: stats.numRows,
      num_indices: stats.numIndices,
      fragment_stats: {
        num_fragments: stats.fragmentStats.numFragments,
        num_small_fragments: stats.fragmentStats.numSmallFragments,
        lengths: stats.fragmentStats.lengths,
      },
    })
  })


  app.post('/v1/table/:id/add_columns', async (request, reply) => {
    const cols = body(request).new_columns
    if (!Array.isArray(cols) || cols.length === 0) throw invalid('new_columns must be a non-empty list')
    const columns = cols.map((c: { name?: unknown; expression?: unknown }) => {
      if (typeof c?.name !== 'string' || c.name === '') throw invalid('every new column needs a name')
      if (typeof c.expression !== 'string' || c.expression === '') throw new AppError('unsupported', 'This server adds columns from a SQL expression only')
      return { name: c.name, expression: c.expression }
    })
    const version = await write(request, (catalog, id) => catalog.client.addColumns(id, columns))
    return json(reply, { version })
  })

  app.post('/v1/table/:id/alter_columns', async (request, reply) => {
    const alts = body(request).alterations
    if (!Array.isArray(alts) || alts.length === 0) throw invalid('alterations must be a non-empty list')
    const alterations = alts.map((a: { path?: unknown; rename?: unknown; nullable?: unknown; data_type?: unknown }) => {
      if (typeof a?.path !== 'string' || a.path === '') throw invalid('every alteration needs a path')
      const type = a.data_type && typeof a.data_type === 'object' ? (a.data_type as { type?: unknown }).type : undefined
      if (a.data_type !== undefined && a.data_type !== null && !(castTypes as readonly unknown[]).includes(type)) throw invalid(`data_type must be one of ${castTypes.join(', ')}`)
      if (a.rename !== undefined && a.rename !== null && typeof a.rename !== 'string') throw invalid('rename must be a string')
      if (a.nullable !== undefined && a.nullable !== null && typeof a.nullable !== 'boolean') throw invalid('nullable must be true or false')
      return {
        path: a.path,
        ...(typeof a.rename === 'string' ? { rename: a.rename } : {}),
        ...(typeof a.nullable === 'boolean' ? { nullable: a.nullable } : {}),
        ...(type ? { dataType: type as (typeof castTypes)[number] } : {}),
      }
    })
    const version = await write(request, (catalog, id) => catalog.client.alterColumns(id, alterations))
    return json(reply, { version })
  })

  app.post('/v1/table/:id/drop_columns', async (request, reply) => {
    const columns = body(request).columns
    if (!Array.isArray(columns) || columns.length === 0 || !columns.every((c) => typeof c === 'string' && c !== '')) throw invalid('columns must be a non-empty list of names')
    const version = await write(request, (catalog, id) => catalog.client.dropColumns(id, columns as string[]))
    return json(reply, { version })
  })

}

/** Row writes: update, delete, merge-insert (an Arrow body). */
function registerRowWriteRoutes(app: FastifyInstance, deps: RouteContext): void {
  const { json, body, decodeGuard, catalogOf } = deps
  const write = writer(catalogOf)

  app.post('/v1/table/:id/update', async (request, reply) => {
    const b = body(request)
    const updates = b.updates
    if (!Array.isArray(updates) || updates.length === 0 || !updates.every((u) => Array.isArray(u) && u.length === 2 && u.every((x) => typeof x === 'string' && x !== '')))
      throw invalid('updates must be a non-empty list of [column, sql_expression] pairs')
    if (b.predicate !== undefined && b.predicate !== null && typeof b.predicate !== 'string') throw invalid('predicate must be a SQL string')
    const valuesSql = Object.fromEntries(updates as [string, string][])
    const result = await write(request, (catalog, id) =>
      lance(catalog).onTable(id, (t) => t.update({ valuesSql, ...(typeof b.predicate === 'string' && b.predicate !== '' ? { where: b.predicate } : {}) }), true),
    )
    return json(reply, { updated_rows: result.rowsUpdated, version: result.version })
  })

  app.post('/v1/table/:id/delete', async (request, reply) => {
    const predicate = string(body(request), 'predicate')
    const result = await write(request, (catalog, id) => lance(catalog).onTable(id, (t) => t.delete(predicate), true))
    return json(reply, { version: result.version })
  })

  app.post('/v1/table/:id/merge_insert', async (request, reply) => {
    const raw = request.query as Record<string, string | string[] | undefined>
    const on = ([] as string[]).concat(raw.on ?? []).filter((c) => c !== '')
    if (on.length === 0) throw invalid('on (the key columns) is required')
    const flag = (name: string) => raw[name] === 'true'
    const data = await readArrowBody(request.body, decodeGuard)
    const result = await write(request, (catalog, id) =>
      lance(catalog).onTable(id, async (t) => {
        let builder = t.mergeInsert(on)
        if (flag('when_matched_update_all')) builder = builder.whenMatchedUpdateAll(typeof raw.when_matched_update_all_filt === 'string' ? { where: raw.when_matched_update_all_filt } : undefined)
        if (flag('when_not_matched_insert_all')) builder = builder.whenNotMatchedInsertAll()
        if (flag('when_not_matched_by_source_delete')) builder = builder.whenNotMatchedBySourceDelete(typeof raw.when_not_matched_by_source_delete_filt === 'string' ? { where: raw.when_not_matched_by_source_delete_filt } : undefined)
        return builder.execute(data)
      }, true),
    )
    return json(reply, { num_updated_rows: result.numUpdatedRows, num_inserted_rows: result.numInsertedRows, num_deleted_rows: result.numDeletedRows, version: result.version })
  })
}
