import { createRequire } from 'node:module'
import type * as SchemaFb from 'apache-arrow/fb/Schema_generated'
import type * as MessageFb from 'apache-arrow/fb/Message_generated'
import type * as FileFb from 'apache-arrow/fb/File_generated'
import type * as Flatbuffers from 'flatbuffers'
import type { VectorLoader as VectorLoaderClass } from 'apache-arrow/visitor/vectorloader'

/**
 * apache-arrow's generated flatbuffer accessors and its vector loader, required from apache-arrow's
 * own location so they are the CommonJS copy that `@lancedb/lancedb` uses (instanceof holds).
 */
const fromArrow = createRequire(require.resolve('apache-arrow'))

export const fbSchema = fromArrow('./fb/Schema_generated.js') as typeof SchemaFb
export const fbMessage = fromArrow('./fb/Message_generated.js') as typeof MessageFb
export const fbFile = fromArrow('./fb/File_generated.js') as typeof FileFb
export const flatbuffers = fromArrow('flatbuffers') as typeof Flatbuffers
export const VectorLoader = (fromArrow('./visitor/vectorloader.js') as { VectorLoader: typeof VectorLoaderClass }).VectorLoader

export type FbField = SchemaFb.Field
export type FbSchema = SchemaFb.Schema
export type FbRecordBatch = MessageFb.RecordBatch

/** Flatbuffer `Type` union ids that apache-arrow 18 does not know (Arrow format 1.4+). */
export const TYPE_BINARY_VIEW = 23
export const TYPE_UTF8_VIEW = 24
export const TYPE_LIST_VIEW = 25
export const TYPE_LARGE_LIST_VIEW = 26

/** `RecordBatch.variadicBufferCounts` (field 4, newer than apache-arrow 18's generated code). */
export function variadicBufferCounts(batch: FbRecordBatch): bigint[] {
  const bb = batch.bb!
  const o = bb.__offset(batch.bb_pos, 12)
  if (!o) return []
  const start = bb.__vector(batch.bb_pos + o)
  const length = bb.__vector_len(batch.bb_pos + o)
  const out: bigint[] = []
  for (let i = 0; i < length; i++) out.push(bb.readInt64(start + i * 8))
  return out
}
