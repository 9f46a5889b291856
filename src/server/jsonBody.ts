import { z } from 'zod'
import { invalid } from './wireErrors'

/** Deepest nesting a JSON body may have (our routes need 3; clients send a little more). */
export const MAX_JSON_DEPTH = 32

/**
 * The depth of a JSON text, found by one pass over its bytes (strings skipped, escapes honoured), so a
 * body nested millions deep is refused before `JSON.parse` spends seconds (or the stack) on it.
 * Returns the first byte offset where `maxDepth` is exceeded, or -1.
 */
export function tooDeepAt(bytes: Uint8Array, maxDepth: number): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!
    if (inString) {
      if (c === 0x5c) i++ // backslash: skip the escaped byte
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return i
    } else if (c === 0x7d || c === 0x5d) depth--
  }
  return -1
}

/** Parse a JSON request body after the bounded depth scan; empty and `null` bodies are `{}` (clients send both). */
export function parseJsonBody(body: Buffer, maxDepth = MAX_JSON_DEPTH): unknown {
  const at = tooDeepAt(body, maxDepth)
  if (at >= 0) throw invalid(`The JSON body nests deeper than ${maxDepth} levels`)
  const text = body.toString('utf8').trim()
  if (text === '' || text === 'null') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw invalid('The request body is not valid JSON')
  }
  // Every JSON request of the contract is an object (a request model, or a bare map of strings).
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid(`The request body must be a JSON object, not ${Array.isArray(parsed) ? 'an array' : typeof parsed === 'string' ? 'a string' : `a ${typeof parsed}`}`)
  return parsed
}

const names = z.array(z.string())
const id = names.nullish()
const mode = z.string().nullish()
const version = z.number().int().nullish()

/**
 * The JSON bodies of the contract's routes, field by field: a field of the wrong type is refused (400,
 * code 13), never silently ignored. Unknown fields pass (clients add their own).
 */
export const bodies = {
  createNamespace: z.looseObject({ id, mode, properties: z.record(z.string(), z.string()).nullish() }),
  dropNamespace: z.looseObject({ id, mode, behavior: mode }),
  query: z.looseObject({
    id,
    k: z.number().int().min(0),
    offset: z.number().int().min(0).nullish(),
    filter: z.string().nullish(),
    columns: z.looseObject({ column_names: z.array(z.string()).nullish(), column_aliases: z.record(z.string(), z.string()).nullish() }).nullish(),
    vector: z.looseObject({ single_vector: z.array(z.number()).nullish(), multi_vector: z.array(z.array(z.number())).nullish() }).nullish(),
    full_text_query: z.unknown().optional(),
    with_row_id: z.boolean().nullish(),
    version,
    prefilter: z.boolean().nullish(),
    fast_search: z.boolean().nullish(),
    bypass_vector_index: z.boolean().nullish(),
    distance_type: z.string().nullish(),
    nprobes: z.number().int().nullish(),
    refine_factor: z.number().int().nullish(),
    ef: z.number().int().nullish(),
    lower_bound: z.number().nullish(),
    upper_bound: z.number().nullish(),
  }),
  countRows: z.looseObject({ id, predicate: z.string().nullish(), version }),
  rename: z.looseObject({ id, new_table_name: z.string(), new_namespace_id: names.nullish(), new_namespace: names.nullish() }),
  restore: z.looseObject({ id, version: z.number().int() }),
} as const

/** `body` checked against `schema`; the first problem becomes a 400 (code 13) naming the field. */
export function checkBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body ?? {})
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  const where = issue.path.length > 0 ? issue.path.join('.') : 'the body'
  throw invalid(`${where}: ${issue.message}`)
}
