import * as arrow from 'apache-arrow'
import { seededRandom } from '../../../src/core/arrow'

/** Valid bodies of several shapes: plain columns, strings, nullable, lists, structs, vectors, dictionaries. */
export function validBodies(): { name: string; table: arrow.Table; bytes: Uint8Array }[] {
  const rows = 40
  const ids = BigInt64Array.from({ length: rows }, (_, i) => BigInt(i))
  const plain = arrow.tableFromArrays({ id: ids, label: Array.from({ length: rows }, (_, i) => `row ${i} ✓`), x: Float64Array.from({ length: rows }, (_, i) => i / 3) })
  const tagsType = new arrow.List(new arrow.Field('item', new arrow.Utf8(), true))
  const pointType = new arrow.Struct([new arrow.Field('x', new arrow.Int32(), false), new arrow.Field('y', new arrow.Int32(), false)])
  const nested = new arrow.Table({
    id: arrow.makeVector(ids),
    tags: arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => (i % 3 === 0 ? null : ['a', 'b'].slice(0, i % 3))), tagsType),
    point: arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => ({ x: i, y: -i })), pointType),
    ok: arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => i % 2 === 0), new arrow.Bool()),
  })
  const vectorType = new arrow.FixedSizeList(4, new arrow.Field('item', new arrow.Float32(), true))
  const vectors = arrow.makeData({
    type: vectorType,
    length: rows,
    nullCount: 0,
    child: arrow.makeData({ type: new arrow.Float32(), length: rows * 4, data: Float32Array.from({ length: rows * 4 }, (_, i) => i / 7) }),
  })
  const vector = new arrow.Table({ id: arrow.makeVector(ids), vector: arrow.makeVector(vectors) })
  const dict = new arrow.Table({ id: arrow.makeVector(ids), kind: arrow.vectorFromArray(Array.from({ length: rows }, (_, i) => ['cat', 'dog', 'eel'][i % 3]!), new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32())) })
  return [
    { name: 'plain', table: plain },
    { name: 'nested', table: nested },
    { name: 'vector', table: vector },
    { name: 'dictionary', table: dict },
  ].flatMap(({ name, table }) => [
    { name: `${name}-stream`, table, bytes: arrow.tableToIPC(table, 'stream') },
    { name: `${name}-file`, table, bytes: arrow.tableToIPC(table, 'file') },
  ])
}

const MUTATIONS = ['truncate', 'flip', 'duplicate', 'insert', 'lengthBomb', 'metadataBomb'] as const
export type Mutation = (typeof MUTATIONS)[number]

/** Offsets of the int32/int64 little-endian fields that look like lengths: every 4-byte aligned word. */
function word(rand: () => number, size: number): number {
  return Math.floor((rand() * Math.max(1, size - 8)) / 4) * 4
}

/** One damaged copy of `bytes`: truncated, bytes flipped, a range duplicated or inserted, or a length turned into a bomb. */
export function damage(bytes: Uint8Array, seed: number): { mutation: Mutation; bytes: Uint8Array } {
  // Deterministic, so every damaged body can be reproduced from its seed.
  const rand = seededRandom(seed)
  const mutation = MUTATIONS[Math.floor(rand() * MUTATIONS.length)]!
  const out = Uint8Array.from(bytes)
  const view = new DataView(out.buffer)
  switch (mutation) {
    case 'truncate':
      return { mutation, bytes: out.subarray(0, Math.floor(rand() * out.length)) }
    case 'flip': {
      const n = 1 + Math.floor(rand() * 4)
      for (let i = 0; i < n; i++) out[Math.floor(rand() * out.length)] = [0xff, 0x7f, 0x80, 0x00, Math.floor(rand() * 256)][Math.floor(rand() * 5)]!
      return { mutation, bytes: out }
    }
    case 'duplicate':
    case 'insert': {
      const at = Math.floor(rand() * out.length)
      const len = 1 + Math.floor(rand() * 64)
      const piece = mutation === 'duplicate' ? bytes.subarray(at, at + len) : Uint8Array.from({ length: len }, () => Math.floor(rand() * 256))
      const joined = new Uint8Array(out.length + piece.length)
      joined.set(out.subarray(0, at))
      joined.set(piece, at)
      joined.set(out.subarray(at), at + piece.length)
      return { mutation, bytes: joined }
    }
    case 'lengthBomb': {
      // A 64-bit length (buffer, node, batch or body length in the metadata) set huge or negative.
      const at = word(rand, out.length)
      const value = [0x7fffffffn, 0xffffffffn, 1n << 40n, -1n, 1n << 62n][Math.floor(rand() * 5)]!
      if (at + 8 <= out.length) view.setBigInt64(at, value, true)
      return { mutation, bytes: out }
    }
    case 'metadataBomb': {
      // A 32-bit word (metadata length, flatbuffer offset or list length) set huge.
      const at = word(rand, out.length)
      view.setUint32(at, [0x7fffffff, 0xfffffff0, 0x10000000, 0xffff][Math.floor(rand() * 4)]!, true)
      return { mutation, bytes: out }
    }
  }
}
