import type { FastifyInstance } from 'fastify'
import type { Field, Schema } from 'apache-arrow'
import { z } from 'zod'
import { AppError } from '../../contract'
import { columnNotFound, DirNamespaceClient } from '../../core/namespace'
import { tableOf } from '../ids'
import type { RouteContext } from './context'
import { checkBody } from '../jsonBody'

const updateFieldMetadata = z.looseObject({
  branch: z.string().nullish(),
  updates: z
    .array(z.looseObject({ path: z.string().min(1), metadata: z.record(z.string(), z.string().nullable()), replace: z.boolean().nullish() }))
    .min(1, 'updates must name at least one field'),
})

/**
 * Metadata of a table's schema (rest-contract §3.2). UpdateFieldMetadata is lancedb's `updateFieldMetadata` (one
 * commit: merge, `null` deletes a key, `replace` swaps the map). UpdateTableSchemaMetadata — the schema-level map —
 * has no call in lancedb 0.31.0's Node API (it changes field metadata only), so it answers "unsupported".
 */
export function registerMetadataRoutes(app: FastifyInstance, deps: RouteContext): void {
  const { catalogOf, json, body } = deps

  app.post('/v1/table/:id/update_field_metadata', async (request, reply) => {
    const id = tableOf(request)
    const b = checkBody(updateFieldMetadata, body(request))
    if (b.branch) throw new AppError('unsupported', 'This server updates field metadata on the main branch only')
    const updates = b.updates.map((u) => ({ path: u.path, metadata: u.metadata, ...(u.replace ? { replace: true } : {}) }))
    const catalog = catalogOf(request)
    const client = catalog.client
    if (!(client instanceof DirNamespaceClient)) throw new AppError('unsupported', 'This catalog cannot change field metadata')
    const { version, schema } = await catalog
      .write(() =>
        client.onTable(
          id,
          async (t) => {
            // A path naming no field is the contract's TableColumnNotFound (Lance's own words are an internal error).
            const before = await t.schema()
            const missing = updates.find((u) => !fieldAt(before, u.path))
            if (missing) throw columnNotFound(missing.path, before.fields.map((f) => f.name))
            return { version: (await t.updateFieldMetadata(updates)).version, schema: await t.schema() }
          },
          true,
        ),
      )
      .finally(() => catalog.forget(id))
    const fields: Record<string, Record<string, string>> = {}
    for (const u of updates) {
      const field = fieldAt(schema, u.path)
      if (field) fields[u.path] = Object.fromEntries(field.metadata)
    }
    return json(reply, { version, fields })
  })

  app.post('/v1/table/:id/schema_metadata/update', async (request) => {
    tableOf(request)
    throw new AppError(
      'unsupported',
      "This server cannot change a table's schema metadata: lancedb 0.31.0 has no call for the schema-level metadata map (it changes per-field metadata: use update_field_metadata)",
    )
  })
}

/** The field at a dot path (top-level names, then struct children); backtick-quoted segments keep their dots. */
function fieldAt(schema: Schema, path: string): Field | undefined {
  const segments = [...path.matchAll(/`((?:[^`]|``)*)`|([^.]+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/``/g, '`') : m[2]!))
  let fields: readonly Field[] = schema.fields
  let found: Field | undefined
  for (const segment of segments) {
    found = fields.find((f) => f.name === segment)
    if (!found) return undefined
    fields = (found.type as { children?: Field[] }).children ?? []
  }
  return found
}
