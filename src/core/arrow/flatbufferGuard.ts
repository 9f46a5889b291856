import { createRequire } from 'node:module'

/**
 * apache-arrow decodes IPC metadata (flatbuffers) without bounds checks: a damaged list length in a
 * file's footer or a message header makes it loop over billions of garbage entries until the
 * process runs out of memory (found by the robustness tests). Every list in a valid flatbuffer fits
 * in its buffer, so flatbuffers' `__vector_len` is made to refuse a length that cannot fit. This is
 * a strict subset of valid input: well-formed files (and LanceDB's own use of Arrow) are untouched.
 * The flatbuffers module is resolved from apache-arrow's own location, so it is the copy it uses.
 */
let installed = false

export function guardFlatbuffers(): void {
  if (installed) return
  installed = true
  try {
    const fromArrow = createRequire(require.resolve('apache-arrow'))
    const { ByteBuffer } = fromArrow('flatbuffers') as {
      ByteBuffer: { prototype: { __vector_len(offset: number): number; readInt32(offset: number): number; capacity(): number } }
    }
    const proto = ByteBuffer.prototype
    const original = proto.__vector_len
    proto.__vector_len = function (this: typeof proto, offset: number): number {
      const length = original.call(this, offset)
      const start = offset + this.readInt32(offset) + 4
      if (length < 0 || start < 0 || start > this.capacity() || length > this.capacity() - start) {
        throw new Error('its metadata is damaged (a list is longer than the bytes that hold it)')
      }
      return length
    }
  } catch {
    // Without the guard import still works; only damaged metadata could then exhaust memory.
  }
}
