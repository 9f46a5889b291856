import { deserialize, serialize } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { tableFromIPC, tableFromArrays } from 'apache-arrow'
import { forTransfer } from '../../src/host/transfer'
import { toIpcStream } from '../../src/core/arrow'

// Pages cross Electron IPC as one exact ArrayBuffer: only the page is cloned, and it decodes in place.
describe('forTransfer', () => {
  const page = toIpcStream(tableFromArrays({ id: Float64Array.of(1, 2, 3), v: Float32Array.of(0.5, 1.5, 2.5) }))

  it('hands a page that spans its buffer over as that buffer, without a copy', () => {
    const result = forTransfer({ ok: true, value: page })
    expect(result.ok && result.value).toBe(page.buffer)
  })

  it('cuts a view out of a larger buffer to exactly its bytes', () => {
    const pool = new Uint8Array(page.byteLength + 13)
    pool.set(page, 5)
    const view = pool.subarray(5, 5 + page.byteLength)
    const result = forTransfer({ ok: true, value: view })
    if (!result.ok) throw new Error('not ok')
    const buffer = result.value as ArrayBuffer
    expect(buffer).toBeInstanceOf(ArrayBuffer)
    expect(buffer.byteLength).toBe(page.byteLength)
    // What the renderer does: wrap the cloned buffer and decode it.
    const cloned = new Uint8Array(deserialize(serialize(buffer)) as ArrayBuffer)
    expect(tableFromIPC(cloned).getChild('v')?.toArray()).toEqual(Float32Array.of(0.5, 1.5, 2.5))
  })

  it('leaves JSON values and errors as they are', () => {
    const error = { ok: false as const, error: { code: 'not_found' as const, message: 'gone' } }
    expect(forTransfer(error)).toBe(error)
    const value = { ok: true as const, value: [1, 2] }
    expect(forTransfer(value)).toBe(value)
  })
})
