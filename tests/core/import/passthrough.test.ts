import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFile, writeFile } from 'node:fs/promises'
import { openSource, writeSource } from '../../../src/core/import'
import { fbFile, fbMessage, flatbuffers, type FbRecordBatch } from '../../../src/core/arrow/ipc/fb'
import { ipcFile, MESSAGE_AT, MessageBuffers, zstdFrameBound } from '../../../src/core/arrow/ipc/frame'
import { pl } from '../../fixtures/import/polars'
import { writeArrow } from '../../fixtures/import/arrow'
import { readExact, typesOf } from './exact'
import { stagedLeftovers, tableNames, workspace, type Workspace } from './helpers'
import { Field, FixedSizeList, Float32, Int64, RecordBatch, Schema, Struct, Utf8, makeData, tableFromIPC, tableToIPC, tableFromArrays } from 'apache-arrow'

/**
 * Record batches that Lance can take as the file wrote them go to lancedb's native `add` as their message
 * bytes (arrow-rs decodes ZSTD and views): what arrives must read back equal, and a damaged compressed buffer
 * must end in a clear error with nothing left in the catalog.
 */

let ws: Workspace
/**
 * IPC buffers handed to Lance undecoded, counted where the writer frames the file's own messages for the client
 * (decoded chunks reach the client's IPC calls too, encoded by the writer).
 */
let rawCalls = 0
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  await ws.cleanup()
})

const ROWS = 3_000
const CHUNK = 1_000
const DIM = 8

function row(i: number) {
  return {
    id: BigInt(i) * 3n + 9007199254740993n,
    label: i % 7 === 3 ? null : i % 2 ? `short ${i}` : `a label longer than twelve bytes, row ${i} — ünïcödé`,
    vector: Array.from({ length: DIM }, (_, k) => i + k / 8),
  }
}

/** A polars IPC file (Utf8View labels, Float32 vectors) of several record batches. */
function polarsFile(path: string, compression: 'zstd' | 'lz4' | 'uncompressed'): Promise<void> {
  const parts = []
  for (let start = 0; start < ROWS; start += CHUNK) {
    const r = Array.from({ length: CHUNK }, (_, k) => row(start + k))
    parts.push(
      pl.DataFrame([
        pl.Series('id', r.map((x) => x.id)).cast(pl.Int64),
        pl.Series('label', r.map((x) => x.label)),
        pl.Series('vector', r.map((x) => x.vector)).cast(pl.FixedSizeList(pl.Float32, DIM)),
      ]),
    )
  }
  pl.concat(parts, { rechunk: false, how: 'vertical' }).writeIPC(path, { compression })
  return Promise.resolve()
}

let tables = 0
/** One batch per chunk: each raw batch is its own Lance call. */
const BATCH_LIMITS = { maxRows: CHUNK, maxBytes: 64 * 1024 * 1024 }

/** The file opened, its pass-through's framings counted in {@link rawCalls}. */
async function openCounted(path: string) {
  const source = await openSource(path)
  const pass = source.passThrough
  if (pass) {
    const frame = pass.frame.bind(pass)
    pass.frame = (messages) => {
      rawCalls++
      return frame(messages)
    }
  }
  return source
}

async function importFile(path: string, limits?: typeof BATCH_LIMITS) {
  const name = `p${++tables}`
  const source = await openCounted(path)
  const before = rawCalls
  const result = await writeSource(ws.client, { namespace: [], name }, source, { mode: 'create', limits })
  return { name, result, raw: rawCalls - before, ...(await readExact(ws.client, { namespace: [], name })) }
}

/** Each record batch's compressed buffers: [absolute offset of the ZSTD frame, its length], per batch. */
async function zstdFrames(path: string): Promise<[number, number][][]> {
  const bytes = new Uint8Array(await readFile(path))
  const dv = new DataView(bytes.buffer)
  const footerLength = dv.getInt32(bytes.length - 10, true)
  const footer = fbFile.Footer.getRootAsFooter(new flatbuffers.ByteBuffer(bytes.subarray(bytes.length - 10 - footerLength, bytes.length - 10)))
  const out: [number, number][][] = []
  for (let b = 0; b < footer.recordBatchesLength(); b++) {
    const block = footer.recordBatches(b)!
    const at = Number(block.offset())
    const metaLength = dv.getInt32(at + 4, true)
    const message = fbMessage.Message.getRootAsMessage(new flatbuffers.ByteBuffer(bytes.slice(at + 8, at + 8 + metaLength)))
    const header = message.header(new fbMessage.RecordBatch()) as FbRecordBatch
    const bodyAt = at + Number(block.metaDataLength())
    const frames: [number, number][] = []
    for (let i = 0; i < header.buffersLength(); i++) {
      const buf = header.buffers(i)!
      const offset = bodyAt + Number(buf.offset())
      const length = Number(buf.length())
      if (length > 8 && dv.getBigInt64(offset, true) !== -1n) frames.push([offset + 8, length - 8])
    }
    out.push(frames)
  }
  return out
}

describe('record batches handed to Lance undecoded', () => {
  it.each([
    ['zstd', 'one batch per commit', BATCH_LIMITS, 3],
    ['zstd', 'small batches gathered into one commit', undefined, 1],
    ['uncompressed', 'one batch per commit', BATCH_LIMITS, 3],
  ] as const)('polars %s file (Utf8View; BinaryView: producers.test.ts), %s: the batches go to Lance as they are and read back equal', async (compression, _how, limits, calls) => {
    const path = ws.file(`pass-${compression}-${calls}.arrow`)
    await polarsFile(path, compression)
    const { raw, result, table, rows } = await importFile(path, limits)
    // 1,000-row batches copied byte for byte: a create and two appends, or all three in the create.
    expect(raw).toBe(calls)
    expect(result.rowCount).toBe(ROWS)
    // Lance stores the views as their plain types: the conversion the import sheet lists.
    expect(typesOf(table)).toEqual({ id: 'Int64', label: 'Utf8', vector: `FixedSizeList[${DIM}]<Float32>` })
    expect(rows).toHaveLength(ROWS)
    const sorted = [...rows].sort((a, b) => ((a.id as bigint) < (b.id as bigint) ? -1 : 1))
    sorted.forEach((r, i) => {
      const e = row(i)
      expect(r.id).toBe(e.id)
      expect(r.label).toBe(e.label)
      expect(Array.from(r.vector as ArrayLike<number>)).toEqual(e.vector)
    })
  })

  it('an LZ4 file is decoded here (its frames need not bound their size) and reads back equal', async () => {
    const path = ws.file('pass-lz4.arrow')
    await polarsFile(path, 'lz4')
    const { raw, rows } = await importFile(path)
    expect(raw).toBe(0)
    expect(rows).toHaveLength(ROWS)
  })

  it('a plain Arrow file whose batches exceed the chunk limits is decoded and sliced, not handed over whole', async () => {
    const schema = new Schema([new Field('id', new Int64(), false), new Field('label', new Utf8(), false), new Field('vector', new FixedSizeList(4, new Field('item', new Float32(), true)), false)])
    const batch = (start: number, n: number) =>
      new RecordBatch(
        schema,
        makeData({
          type: new Struct(schema.fields),
          length: n,
          nullCount: 0,
          children: [
            makeData({ type: new Int64(), length: n, nullCount: 0, data: BigInt64Array.from({ length: n }, (_, i) => BigInt(start + i)) }),
            makeData({ type: new Utf8(), length: n, nullCount: 0, valueOffsets: Int32Array.from({ length: n + 1 }, (_, i) => i), data: new Uint8Array(n).fill(97) }),
            makeData({ type: schema.fields[2]!.type, length: n, nullCount: 0, child: makeData({ type: new Float32(), length: n * 4, nullCount: 0, data: new Float32Array(n * 4).fill(1) }) }),
          ],
        }),
      )
    const path = ws.file('big-batch.arrow')
    await writeArrow(path, 'file', schema, [batch(0, 25_000), batch(25_000, 100)])
    const { raw, result } = await importFile(path)
    // The 25k-row batch is over the 10k-row chunk: decoded and written in three chunks; the small one goes raw.
    expect(raw).toBe(1)
    expect(result.rowCount).toBe(25_100)
  })

  it.each([
    ['the first batch (the table is created from it)', 0],
    ['a later batch (appended)', 1],
  ])('a damaged ZSTD frame in %s: a clear error, no table, no staging table left', async (_what, batchIndex) => {
    const path = ws.file(`damaged-${batchIndex}.arrow`)
    await polarsFile(path, 'zstd')
    const frames = await zstdFrames(path)
    // The largest frame of the batch (the vector values): its framing stays intact (so it is handed over),
    // its compressed content is scrambled (so only the ZSTD decoder can tell).
    const [at, length] = frames[batchIndex]!.reduce((a, b) => (b[1] > a[1] ? b : a))
    const bytes = await readFile(path)
    const frame = new Uint8Array(bytes.buffer, bytes.byteOffset + at, length)
    const decoded = Number(new DataView(bytes.buffer, bytes.byteOffset + at - 8, 8).getBigInt64(0, true))
    expect(zstdFrameBound(frame, decoded)).not.toBeNull()
    for (let i = 12; i < 44; i++) frame[i] = frame[i]! ^ 0x5a
    expect(zstdFrameBound(frame, decoded)).not.toBeNull() // still handed over undecoded
    await writeFile(path, bytes)
    const name = `damaged${batchIndex}`
    const source = await openCounted(path)
    const before = rawCalls
    const error = await writeSource(ws.client, { namespace: [], name }, source, { mode: 'create', limits: BATCH_LIMITS }).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; hint?: string },
    )
    expect(rawCalls - before).toBe(batchIndex + 1)
    expect(error).toMatchObject({ code: 'corrupt', hint: 'Export the file again' })
    expect(error!.message).toBe("The file's data is damaged (a record batch did not decode: Data corruption detected)")
    expect(await tableNames(ws.client)).not.toContain(name)
    expect(await stagedLeftovers(ws.client)).toEqual([])
  })
})

describe('zstdFrameBound (what may go to arrow-rs undecoded)', () => {
  // A ZSTD frame with no declared size: header 28 b5 2f fd, descriptor 0, window 0x58, one last raw block of 5 bytes.
  const rawFrame = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58, (5 << 3) | 1, 0, 0, 1, 2, 3, 4, 5])
  it('bounds a well-formed frame by its blocks', () => {
    expect(zstdFrameBound(rawFrame, 5)).toBe(5)
  })
  it('refuses trailing bytes, a truncated frame, a reserved block type and a declared size that differs', () => {
    expect(zstdFrameBound(Uint8Array.from([...rawFrame, 0]), 5)).toBeNull()
    expect(zstdFrameBound(rawFrame.subarray(0, rawFrame.length - 1), 5)).toBeNull()
    const reserved = Uint8Array.from(rawFrame)
    reserved[6] = (5 << 3) | (3 << 1) | 1
    expect(zstdFrameBound(reserved, 5)).toBeNull()
    // Single segment with a 1-byte declared size of 4.
    const declared = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 4, (5 << 3) | 1, 0, 0, 1, 2, 3, 4, 5])
    expect(zstdFrameBound(declared, 5)).toBeNull()
    expect(zstdFrameBound(declared, 4)).toBe(4)
  })
})

describe('MessageBuffers (record batch messages framed as IPC files)', () => {
  /** The schema flatbuffer and the record batch messages of an IPC stream apache-arrow wrote. */
  function streamParts(rows: number[]) {
    const bytes = tableToIPC(tableFromArrays({ n: Float64Array.from(rows), m: Int32Array.from(rows, (r) => r * 2) }), 'stream')
    const dv = new DataView(bytes.buffer, bytes.byteOffset)
    const messages: { bytes: Uint8Array; metaDataLength: number }[] = []
    let schema: { bytes: Uint8Array; pos: number } | null = null
    for (let at = 0; dv.getInt32(at + 4, true) !== 0; ) {
      const metaLength = dv.getInt32(at + 4, true)
      const meta = bytes.slice(at + 8, at + 8 + metaLength)
      const message = fbMessage.Message.getRootAsMessage(new flatbuffers.ByteBuffer(meta))
      const end = at + 8 + metaLength + Number(message.bodyLength())
      if (!schema) schema = { bytes: meta, pos: (message.header(new fbMessage.Schema()) as { bb_pos: number }).bb_pos }
      else messages.push({ bytes: bytes.slice(at, end), metaDataLength: 8 + metaLength })
      at = end
    }
    return { schema: schema!, messages }
  }

  it('frames a message read into its buffer where it lies, byte for byte as a copied one, and reuses released buffers', () => {
    const { schema, messages } = streamParts([1, 2, 3])
    const buffers = new MessageBuffers(schema)
    const read = (m: { bytes: Uint8Array; metaDataLength: number }) => {
      const into = buffers.take(m.bytes.length)
      into.set(m.bytes, MESSAGE_AT)
      return { bytes: into.subarray(MESSAGE_AT, MESSAGE_AT + m.bytes.length), metaDataLength: m.metaDataLength }
    }
    const first = read(messages[0]!)
    const framed = buffers.frame([first])
    expect(framed.buffer).toBe(first.bytes.buffer) // no copy
    expect(messages).toHaveLength(1)
    expect(Array.from(framed)).toEqual(Array.from(ipcFile(schema, messages)))
    expect(Array.from(tableFromIPC(framed).getChild('m')!.toArray() as Int32Array)).toEqual([2, 4, 6])
    buffers.release([first])
    const again = read(messages[0]!)
    expect(again.bytes.buffer).toBe(first.bytes.buffer)
    expect(tableFromIPC(buffers.frame([again])).getChild('n')!.toArray()).toEqual(Float64Array.from([1, 2, 3]))
  })

  it('does not hand a big buffer to a much smaller message', () => {
    const big = streamParts(Array.from({ length: 5000 }, (_, i) => i))
    const buffers = new MessageBuffers(big.schema)
    const taken = buffers.take(big.messages[0]!.bytes.length)
    buffers.release([{ bytes: taken.subarray(MESSAGE_AT, MESSAGE_AT + 8), metaDataLength: 8 }])
    expect(buffers.take(64).buffer).not.toBe(taken.buffer)
    expect(buffers.take(big.messages[0]!.bytes.length).buffer).toBe(taken.buffer)
  })
})
