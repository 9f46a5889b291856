import { makeData, makeVector, RecordBatch, Struct, type Data, type Field, type Schema, type Vector } from 'apache-arrow'
import { checkDeclared, decompressIpc, nativeZstd } from './codecs'
import { POOL_MIN_BYTES, zstdPool, type Part } from './zstdPool'
import { variadicBufferCounts, VectorLoader, type FbRecordBatch } from './fb'
import type { Layout } from './schema'

const MAX_BUFFER = 2 ** 31 - 1

interface Node {
  length: number
  nullCount: number
}

/**
 * One record batch body made readable by apache-arrow 18: buffers decompressed, view and
 * large/list-view columns rewritten into their plain forms, then loaded by apache-arrow's own
 * vector loader. Every offset and length read from the file is checked against the bytes it
 * points into; a violation throws (the caller names the file).
 */
export function loadBatch(schema: Schema, layouts: Layout[], header: FbRecordBatch, body: Uint8Array, dictionaries: Map<number, Vector>, buffers?: Uint8Array[]): RecordBatch {
  const length = Number(header.length())
  const children = loadFields(schema.fields, layouts, header, body, dictionaries, buffers)
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }))
}

/**
 * {@link loadBatch}, with a ZSTD body's buffers decoded in a worker (zstdPool.ts) where Node has no native
 * ZSTD and the body is big enough to be worth the trip; `body` is handed over and must not be used after.
 */
export async function loadBatchAsync(schema: Schema, layouts: Layout[], header: FbRecordBatch, body: Uint8Array, dictionaries: Map<number, Vector>): Promise<RecordBatch> {
  const plan = poolPlan(header, body)
  const pool = plan ? zstdPool() : null
  if (!plan || !pool) return loadBatch(schema, layouts, header, body, dictionaries)
  const done = await pool.decode(body.buffer as ArrayBuffer, plan.parts.map((p) => p.part))
  const back = new Uint8Array(done.body, body.byteOffset, body.byteLength)
  // Stored ranges are copied out (they are rare and small in a compressed body), so nothing keeps the body alive.
  const buffers = plan.all.map((b) => (typeof b === 'number' ? checked(done.out[b]!, plan.parts[b]!.part[2], plan.parts[b]!.index) : back.slice(b[0], b[1])))
  return loadBatch(schema, layouts, header, back, dictionaries, buffers)
}

function checked(out: Uint8Array, expected: number, index: number): Uint8Array {
  if (out.length !== expected) throw new Error(`compressed buffer ${index + 1} decodes to ${out.length} bytes instead of ${expected}`)
  return out
}

/**
 * Which buffers of a ZSTD body go to the pool: each buffer is either a [start, end) range of the body
 * (stored uncompressed) or the index of a pool part. Null when the body is decoded in place.
 */
function poolPlan(header: FbRecordBatch, body: Uint8Array): { all: ([number, number] | number)[]; parts: { part: Part; index: number }[] } | null {
  const compression = header.compression()
  if (nativeZstd || !compression || (compression.codec() as number) !== 1 || body.byteLength < POOL_MIN_BYTES) return null
  if (body.byteOffset !== 0 || body.byteLength !== body.buffer.byteLength) return null // only whole bodies are handed over
  const all: ([number, number] | number)[] = []
  const parts: { part: Part; index: number }[] = []
  for (let i = 0; i < header.buffersLength(); i++) {
    const b = header.buffers(i)!
    const offset = Number(b.offset())
    const length = Number(b.length())
    if (!(offset >= 0 && length >= 0 && offset + length <= body.length)) throw new Error(`buffer ${i + 1} lies outside the message body`)
    if (length === 0) {
      all.push([offset, offset])
      continue
    }
    if (length < 8) throw new Error(`compressed buffer ${i + 1} is too short`)
    const decoded = new DataView(body.buffer, body.byteOffset + offset, 8).getBigInt64(0, true)
    if (decoded === -1n) {
      all.push([offset + 8, offset + length])
      continue
    }
    if (decoded < 0n || decoded > BigInt(MAX_BUFFER)) throw new Error(`compressed buffer ${i + 1} claims ${decoded} bytes`)
    all.push(parts.length)
    parts.push({ part: [offset + 8, length - 8, Number(decoded)], index: i })
  }
  checkDeclared(
    parts.reduce((n, p) => n + p.part[2], 0),
    parts.reduce((n, p) => n + p.part[1], 0),
    'a record batch',
    BATCH_HINT,
  )
  return { all, parts }
}

/** The values of a dictionary batch (one column). */
export function loadDictionary(field: Field, layout: Layout, header: FbRecordBatch, body: Uint8Array, dictionaries: Map<number, Vector>): Vector {
  return makeVector(loadFields([field], [layout], header, body, dictionaries)[0]!)
}

function loadFields(fields: Field[], layouts: Layout[], header: FbRecordBatch, body: Uint8Array, dictionaries: Map<number, Vector>, buffers?: Uint8Array[]): Data[] {
  const input = buffers ?? readBuffers(header, body)
  const inNodes: Node[] = []
  for (let i = 0; i < header.nodesLength(); i++) {
    const n = header.nodes(i)!
    const length = Number(n.length())
    const nullCount = Number(n.nullCount())
    if (!(length >= 0 && nullCount >= 0 && nullCount <= length && length <= MAX_BUFFER)) throw new Error(`field node ${i + 1} has an impossible length`)
    inNodes.push({ length, nullCount })
  }
  const rewriter = new Rewriter(input, inNodes, variadicBufferCounts(header).map(Number))
  for (const layout of layouts) rewriter.field(layout)
  const loader = new IndexLoader(rewriter.outBuffers, rewriter.outNodes, dictionaries)
  return loader.visitMany(fields) as Data[]
}

/** The body's buffers as separate arrays, decompressed when the batch says so. */
function readBuffers(header: FbRecordBatch, body: Uint8Array): Uint8Array[] {
  const compression = header.compression()
  const codec = compression ? (compression.codec() as number) : null
  if (codec !== null) checkBatch(header, body)
  const out: Uint8Array[] = []
  for (let i = 0; i < header.buffersLength(); i++) {
    const b = header.buffers(i)!
    const offset = Number(b.offset())
    const length = Number(b.length())
    if (!(offset >= 0 && length >= 0 && offset + length <= body.length)) throw new Error(`buffer ${i + 1} lies outside the message body`)
    const raw = body.subarray(offset, offset + length)
    if (codec === null) {
      out.push(raw)
      continue
    }
    // In a compressed body, a view into the body would keep all of it alive as long as the batch (Lance's write
    // of it included): empty buffers get their own, stored ones are copied.
    if (length === 0) {
      out.push(new Uint8Array(0))
      continue
    }
    if (length < 8) throw new Error(`compressed buffer ${i + 1} is too short`)
    const view = new DataView(raw.buffer, raw.byteOffset, 8)
    const decoded = view.getBigInt64(0, true)
    if (decoded === -1n) {
      out.push(raw.slice(8))
      continue
    }
    if (decoded < 0n || decoded > BigInt(MAX_BUFFER)) throw new Error(`compressed buffer ${i + 1} claims ${decoded} bytes`)
    out.push(decompressIpc(codec, raw.subarray(8), Number(decoded)))
  }
  return out
}

const BATCH_HINT = 'If the file is genuine, write it without compression (e.g. pyarrow IpcWriteOptions(compression=None)) or as Parquet, and import that'

/** What a compressed batch's buffers declare, against the bytes that hold them: checked before any is decoded. */
function checkBatch(header: FbRecordBatch, body: Uint8Array): void {
  let declared = 0
  let compressed = 0
  for (let i = 0; i < header.buffersLength(); i++) {
    const b = header.buffers(i)!
    const offset = Number(b.offset())
    const length = Number(b.length())
    if (!(offset >= 0 && length >= 8 && offset + length <= body.length)) continue // refused below, with its reason
    const size = new DataView(body.buffer, body.byteOffset + offset, 8).getBigInt64(0, true)
    if (size < 0n || size > BigInt(MAX_BUFFER)) continue
    declared += Number(size)
    compressed += length - 8
  }
  checkDeclared(declared, compressed, 'a record batch', BATCH_HINT)
}

/** Walks the columns' nodes and buffers in IPC order and emits the buffers apache-arrow expects. */
class Rewriter {
  readonly outBuffers: Uint8Array[] = []
  readonly outNodes: Node[] = []
  private b = 0
  private n = 0
  private v = 0

  constructor(
    private readonly buffers: Uint8Array[],
    private readonly nodes: Node[],
    private readonly variadic: number[],
  ) {}

  private node(): Node {
    const node = this.nodes[this.n++]
    if (!node) throw new Error('the batch has fewer field nodes than its schema has columns')
    this.outNodes.push(node)
    return node
  }

  private buffer(): Uint8Array {
    const buffer = this.buffers[this.b++]
    if (!buffer) throw new Error('the batch has fewer buffers than its schema needs')
    return buffer
  }

  field(layout: Layout): void {
    const node = this.node()
    switch (layout.kind) {
      case 'plain':
        for (let i = 0; i < layout.buffers; i++) this.outBuffers.push(this.buffer())
        for (const child of layout.children) this.field(child)
        return
      case 'view':
        return this.view(node)
      case 'large-list': {
        this.outBuffers.push(this.buffer())
        this.outBuffers.push(narrowOffsets(this.buffer(), node.length))
        return this.field(layout.children[0])
      }
      case 'list-view': {
        this.outBuffers.push(this.buffer())
        const offsets = this.buffer()
        const sizes = this.buffer()
        this.outBuffers.push(listViewOffsets(offsets, sizes, node, layout.large))
        return this.field(layout.children[0])
      }
    }
  }

  /** Utf8View / BinaryView → Utf8 / Binary: 16-byte views (inline ≤ 12 bytes, else buffer+offset) → offsets + data. */
  private view(node: Node): void {
    const validity = this.buffer()
    const views = this.buffer()
    const count = this.variadic[this.v++]
    if (count === undefined || count < 0 || this.b + count > this.buffers.length) throw new Error('a view column lacks its data buffers')
    const data = this.buffers.slice(this.b, this.b + count)
    this.b += count
    const n = node.length
    if (views.length < n * 16) throw new Error('a view column is shorter than its rows')
    const dv = new DataView(views.buffer, views.byteOffset, n * 16)
    const valid = (i: number) => node.nullCount === 0 || validity.length === 0 || ((validity[i >> 3]! >> (i & 7)) & 1) === 1
    const offsets = new Int32Array(n + 1)
    let total = 0
    for (let i = 0; i < n; i++) {
      const len = valid(i) ? dv.getInt32(i * 16, true) : 0
      if (len < 0) throw new Error('a view has a negative length')
      total += len
      if (total > MAX_BUFFER) throw new Error('a batch holds more than 2 GiB in one text or binary column')
      offsets[i + 1] = total
    }
    const out = new Uint8Array(total)
    for (let i = 0; i < n; i++) {
      const len = offsets[i + 1]! - offsets[i]!
      if (len === 0) continue
      const at = offsets[i]!
      if (len <= 12) {
        out.set(views.subarray(i * 16 + 4, i * 16 + 4 + len), at)
      } else {
        const buf = data[dv.getInt32(i * 16 + 8, true)]
        const start = dv.getInt32(i * 16 + 12, true)
        if (!buf || start < 0 || start + len > buf.length) throw new Error('a view points outside its data buffers')
        out.set(buf.subarray(start, start + len), at)
      }
    }
    this.outBuffers.push(validity, new Uint8Array(offsets.buffer), out)
  }
}

function int32s(bytes: Uint8Array, count: number, what: string): Int32Array {
  if (bytes.length < count * 4) throw new Error(`its ${what} buffer is too short`)
  if (bytes.byteOffset % 4 === 0) return new Int32Array(bytes.buffer, bytes.byteOffset, count)
  return new Int32Array(bytes.slice(0, count * 4).buffer)
}

function int64s(bytes: Uint8Array, count: number, what: string): BigInt64Array {
  if (bytes.length < count * 8) throw new Error(`its ${what} buffer is too short`)
  if (bytes.byteOffset % 8 === 0) return new BigInt64Array(bytes.buffer, bytes.byteOffset, count)
  return new BigInt64Array(bytes.slice(0, count * 8).buffer)
}

/** LargeList's 64-bit offsets → 32-bit (exact: one batch's list values fit in 2^31). */
function narrowOffsets(bytes: Uint8Array, length: number): Uint8Array {
  if (length === 0 && bytes.length === 0) return new Uint8Array(new Int32Array(1).buffer)
  const wide = int64s(bytes, length + 1, 'offsets')
  const out = new Int32Array(length + 1)
  for (let i = 0; i <= length; i++) {
    const x = wide[i]!
    if (x < 0n || x > BigInt(MAX_BUFFER)) throw new Error('a large list offset does not fit in 32 bits')
    out[i] = Number(x)
  }
  return new Uint8Array(out.buffer)
}

/**
 * ListView → List offsets. Writers lay list views out in order (each list starts where the
 * previous one ended), which is a plain list; views that overlap or jump are refused by name.
 */
function listViewOffsets(offsetBytes: Uint8Array, sizeBytes: Uint8Array, node: Node, large: boolean): Uint8Array {
  const n = node.length
  const read = large
    ? (() => {
        const o = int64s(offsetBytes, n, 'offsets')
        const s = int64s(sizeBytes, n, 'sizes')
        return (i: number) => [Number(o[i]!), Number(s[i]!)] as const
      })()
    : (() => {
        const o = int32s(offsetBytes, n, 'offsets')
        const s = int32s(sizeBytes, n, 'sizes')
        return (i: number) => [o[i]!, s[i]!] as const
      })()
  const out = new Int32Array(n + 1)
  let end = n > 0 ? read(0)[0] : 0
  out[0] = end
  for (let i = 0; i < n; i++) {
    const [offset, size] = read(i)
    if (size < 0 || offset < 0) throw new Error('a list view has a negative offset or size')
    if (size > 0 && offset !== end) {
      throw new Error('its list views overlap or are out of order, which this app cannot convert to a list yet')
    }
    end += size
    if (end > MAX_BUFFER) throw new Error('a list view offset does not fit in 32 bits')
    out[i + 1] = end
  }
  return new Uint8Array(out.buffer)
}

/** apache-arrow's loader, reading buffer i of our list where it would read bytes at an offset. */
class IndexLoader extends VectorLoader {
  constructor(buffers: Uint8Array[], nodes: Node[], dictionaries: Map<number, Vector>) {
    super(
      new Uint8Array(0),
      nodes as never,
      buffers.map((b, i) => ({ offset: i, length: b.length })) as never,
      dictionaries as never,
    )
    this.list = buffers
  }

  private list: Uint8Array[]

  override readData(_type: unknown, region: { offset: number } = this.nextBufferRange() as { offset: number }): Uint8Array {
    const buffer = this.list[region.offset]
    if (!buffer) throw new Error('the batch has fewer buffers than its schema needs')
    return buffer
  }
}

