import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import Ajv, { type ValidateFunction } from 'ajv'
import { parse } from 'yaml'

/**
 * The Lance namespace OpenAPI document, read at test time (no npm package ships it and we do not copy it
 * into the repository): `LANCE_NAMESPACE_SPEC`, else `../shared/lance-namespace-spec/spec-v0.11.1.yaml`
 * next to the repository. Null when neither exists.
 */
export function specPath(): string | null {
  const candidates = [process.env.LANCE_NAMESPACE_SPEC, resolve(__dirname, '../../../shared/lance-namespace-spec/spec-v0.11.1.yaml'), resolve(process.cwd(), '../shared/lance-namespace-spec/spec-v0.11.1.yaml')]
  return candidates.find((p): p is string => !!p && existsSync(p)) ?? null
}

interface Operation {
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: unknown }> }>
}

export class OpenApiResponses {
  private readonly ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true })
  private readonly doc: { paths: Record<string, Record<string, Operation>>; components: { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> } }
  private readonly cache = new Map<string, ValidateFunction>()

  constructor(path: string) {
    this.doc = withoutNullable(parse(readFileSync(path, 'utf8'))) as typeof this.doc
    // The whole document under one id, so `#/components/...` refs resolve inside it.
    this.ajv.addSchema({ ...(this.doc as object), $id: 'spec' } as never, 'spec')
  }

  /** The JSON schema of the reply to `method path` with `status`, or null when the spec gives the reply no body. */
  private responseRef(template: string, method: string, status: number): string | null {
    const op = this.doc.paths[template]?.[method.toLowerCase()]
    if (!op) throw new Error(`The spec has no operation ${method} ${template}`)
    const entry = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`]
    // Error statuses the operation does not list (409 on some writes) still must be an ErrorResponse.
    if (!entry && status >= 400) return 'spec#/components/schemas/ErrorResponse'
    if (!entry) throw new Error(`The spec allows no ${status} reply to ${method} ${template}`)
    const name = entry.$ref?.split('/').pop()
    const content = name ? this.doc.components.responses[name]?.content : entry.content
    if (!content?.['application/json']?.schema) return null
    return name ? `spec#/components/responses/${name}/content/application~1json/schema` : `spec#/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`
  }

  /** Problems of `body` as the reply to `method template` with `status` (empty = valid). */
  check(template: string, method: string, status: number, body: unknown): string[] {
    const ref = this.responseRef(template, method, status)
    if (ref === null) return []
    let validate = this.cache.get(ref)
    if (!validate) {
      validate = this.ajv.getSchema(ref)
      if (!validate) throw new Error(`Cannot resolve ${ref}`)
      this.cache.set(ref, validate)
    }
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`)
  }
}

/**
 * OpenAPI 3.0's `nullable` (still used in places of the 3.1 document, sometimes beside a `$ref` and no `type`)
 * as JSON Schema: `type: [t, "null"]`, or dropped where there is no type to widen.
 */
function withoutNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNullable)
  if (!node || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(node)) if (k !== 'nullable') out[k] = withoutNullable(v)
  const n = node as { nullable?: unknown; type?: unknown }
  if (n.nullable === true && typeof n.type === 'string') out.type = [n.type, 'null']
  return out
}
