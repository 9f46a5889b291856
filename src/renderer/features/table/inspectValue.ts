/** Pure helpers of the cell inspector: image sniffing, vector statistics, hex dumps, JSON detection. */

export type ImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'

/** The image type told by the bytes' magic numbers (never by a name or a claim); null for anything else. */
export function sniffImage(bytes: Uint8Array): ImageType | null {
  const starts = (...magic: number[]) => magic.every((b, i) => bytes[i] === b)
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png'
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg'
  if (starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return 'image/gif'
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return 'image/webp'
  return null
}

export interface VectorStats {
  dimension: number
  norm: number
  min: number
  max: number
  mean: number
  nans: number
  zeros: number
}

/** Statistics over the finite values (NaNs are counted, not summed). */
export function vectorStats(values: ArrayLike<number>): VectorStats {
  let min = Infinity
  let max = -Infinity
  let sum = 0
  let squares = 0
  let nans = 0
  let zeros = 0
  let finite = 0
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i]!
    if (Number.isNaN(v)) {
      nans += 1
      continue
    }
    if (v === 0) zeros += 1
    if (v < min) min = v
    if (v > max) max = v
    sum += v
    squares += v * v
    finite += 1
  }
  return {
    dimension: values.length,
    norm: Math.sqrt(squares),
    min: finite ? min : Number.NaN,
    max: finite ? max : Number.NaN,
    mean: finite ? sum / finite : Number.NaN,
    nans,
    zeros,
  }
}

/** `offset  hex bytes  ascii` lines, 16 bytes each, of the first `limit` bytes. */
export function hexDump(bytes: Uint8Array, limit = 4096): string[] {
  const lines: string[] = []
  const n = Math.min(bytes.length, limit)
  for (let at = 0; at < n; at += 16) {
    const row = bytes.subarray(at, Math.min(at + 16, n))
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, '0')).join(' ')
    const ascii = Array.from(row, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '.')).join('')
    lines.push(`${at.toString(16).padStart(8, '0')}  ${hex.padEnd(47)}  ${ascii}`)
  }
  return lines
}

/** A string that holds a JSON object or array, parsed; null for any other text. */
export function parseJsonText(text: string): unknown {
  const trimmed = text.trimStart()
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return null
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}
