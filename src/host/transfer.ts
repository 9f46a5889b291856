import type { Result } from '../contract'
import { exactArrayBuffer } from '../core/arrow'

/**
 * Binary values (Arrow IPC pages) cross as one exact ArrayBuffer: structured clone copies a typed array's whole
 * underlying buffer, so a page that is a view on a larger one would cross whole, twice (here → main → window); the
 * renderer decodes the exact buffer in place (src/renderer/api/transport.ts wraps it back into a Uint8Array).
 */
export function forTransfer(result: Result<unknown>): Result<unknown> {
  return result.ok && result.value instanceof Uint8Array ? { ok: true, value: exactArrayBuffer(result.value) } : result
}
