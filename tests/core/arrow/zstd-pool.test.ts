import { createRequire } from 'node:module'
import { readFile, writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openIpc } from '../../../src/core/arrow/ipc/reader'
import { zstdPool } from '../../../src/core/arrow/ipc/zstdPool'
import { nativeZstd } from '../../../src/core/arrow/ipc/codecs'
import { fbFile, fbMessage, flatbuffers } from '../../../src/core/arrow/ipc/fb'
import { workspace, type Workspace } from '../import/helpers'

/* eslint-disable @typescript-eslint/no-explicit-any */
const pl = createRequire(__filename)('nodejs-polars') as any

const DIM = 128
const ROWS = 3_000 // per batch: 3000 × 128 float32 = 1.5 MB, above the pool's threshold

let ws: Workspace
beforeAll(async () => {
  ws = await workspace()
})
afterAll(async () => {
  await ws.cleanup()
})

function value(row: number, k: number): number {
  // Deterministic, hard to compress, exactly representable in float32.
  return Math.fround(Math.sin(row * 131 + k * 7.3) * 1000)
}

function frame(start: number): any {
  const ids = Array.from({ length: ROWS }, (_, r) => start + r)
  const vectors = ids.map((row) => Array.from({ length: DIM }, (_, k) => value(row, k)))
  return pl.DataFrame([pl.Series('id', ids, pl.Int64), pl.Series('label', ids.map((i) => `row ${i}`)), pl.Series('vector', vectors).cast(pl.FixedSizeList(pl.Float32, DIM))])
}

async function polarsZstdFile(name: string): Promise<string> {
  const path = ws.file(name)
  pl.concat([frame(0), frame(ROWS)], { rechunk: false, how: 'vertical' }).writeIPC(path, { compression: 'zstd' })
  return path
}

describe.skipIf(nativeZstd)('ZSTD bodies decoded in a worker (Node without zlib ZSTD)', () => {
  it('a polars ZSTD file with big bodies reads back value for value, its bodies decoded by the pool', async () => {
    const path = await polarsZstdFile('big-zstd.arrow')
    const before = zstdPool()!.decoded
    const reader = await openIpc(path, 'file')
    let row = 0
    for await (const batch of reader.batches()) {
      const ids = batch.getChild('id')!
      const labels = batch.getChild('label')!
      const values = batch.getChild('vector')!.data[0]!.children[0]!
      const floats = (values.values as Float32Array).subarray(values.offset, values.offset + values.length)
      for (let r = 0; r < batch.numRows; r++, row++) {
        expect(Number(ids.get(r))).toBe(row)
        expect(labels.get(r)).toBe(`row ${row}`)
        for (const k of [0, 1, DIM - 1]) expect(floats[r * DIM + k]).toBe(value(row, k))
      }
    }
    expect(row).toBe(2 * ROWS)
    expect(zstdPool()!.decoded - before).toBe(2)
  })

  it('a compressed buffer that decodes to fewer bytes than it declares is an error, not a crash', async () => {
    const path = await polarsZstdFile('bad-zstd.arrow')
    const bytes = await readFile(path)
    // The first record batch's largest buffer (the vectors): raise its declared decoded length.
    const footerLength = bytes.readInt32LE(bytes.length - 10)
    const footer = fbFile.Footer.getRootAsFooter(new flatbuffers.ByteBuffer(new Uint8Array(bytes.subarray(bytes.length - 10 - footerLength, bytes.length - 10))))
    const at = Number(footer.recordBatches(0)!.offset())
    const metaLength = bytes.readInt32LE(at + 4)
    const message = fbMessage.Message.getRootAsMessage(new flatbuffers.ByteBuffer(new Uint8Array(bytes.subarray(at + 8, at + 8 + metaLength))))
    const header = message.header(new fbMessage.RecordBatch()) as any
    let biggest = header.buffers(0)
    for (let i = 1; i < header.buffersLength(); i++) if (Number(header.buffers(i).length()) > Number(biggest.length())) biggest = header.buffers(i)
    const prefixAt = at + 8 + metaLength + Number(biggest.offset())
    bytes.writeBigInt64LE(bytes.readBigInt64LE(prefixAt) + 64n, prefixAt)
    await writeFile(path, bytes)
    const reader = await openIpc(path, 'file')
    const read = async () => {
      for await (const batch of reader.batches()) void batch
    }
    await expect(read()).rejects.toThrow(/decodes to \d+ bytes instead of \d+/)
  })
})
