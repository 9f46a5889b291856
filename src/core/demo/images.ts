import { crc32, deflateSync } from 'node:zlib'

/**
 * Small real images for the demo catalog's `samples/pictures`: PNG and GIF are encoded here (PNG through zlib,
 * GIF with an uncompressed LZW stream); JPEG and WebP are fixed bytes (below), since an encoder for either would
 * be far larger than the images. Every value is deterministic, so tests and screenshots see the same bytes.
 */

/** An RGB colour from a hue (0…360) at fixed saturation and lightness. */
function hueColor(hue: number, lightness = 0.55): [number, number, number] {
  const s = 0.7
  const c = (1 - Math.abs(2 * lightness - 1)) * s
  const h = (((hue % 360) + 360) % 360) / 60
  const x = c * (1 - Math.abs((h % 2) - 1))
  const [r, g, b] = h < 1 ? [c, x, 0] : h < 2 ? [x, c, 0] : h < 3 ? [0, c, x] : h < 4 ? [0, x, c] : h < 5 ? [x, 0, c] : [c, 0, x]
  const m = lightness - c / 2
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)]
}

/** A `size`×`size` RGB PNG (8-bit), each pixel's colour from `pixel(x, y)`. */
export function encodePng(size: number, pixel: (x: number, y: number) => readonly [number, number, number]): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc32(body), body.length + 4)
    return out
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 2 // RGB
  const raw = Buffer.alloc(size * (size * 3 + 1))
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) raw.set(pixel(x, y), y * (size * 3 + 1) + 1 + x * 3)
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array())]))
}

/** A `size`×`size` RGB PNG: a vertical gradient of `hue` with a lighter square whose place follows `seed`. */
export function demoPng(hue: number, seed: number, size = 48): Uint8Array {
  const box = Math.floor(size / 3)
  const bx = (seed * 7) % (size - box)
  const by = (seed * 13) % (size - box)
  const rows = Array.from({ length: size }, (_, y) => hueColor(hue, 0.35 + (0.35 * y) / size))
  return encodePng(size, (x, y) => (x >= bx && x < bx + box && y >= by && y < by + box ? [245, 245, 240] : rows[y]!))
}

/**
 * A `size`×`size` GIF89a with a 4-colour palette: stripes of `hue`. The LZW stream is left uncompressed (a clear
 * code every two pixels keeps every code 3 bits wide), which any decoder reads.
 */
export function demoGif(hue: number, size = 48): Uint8Array {
  const palette = [hueColor(hue, 0.3), hueColor(hue, 0.5), hueColor(hue + 40, 0.65), [250, 250, 245] as [number, number, number]]
  const out: number[] = []
  const u16 = (n: number) => out.push(n & 0xff, (n >> 8) & 0xff)
  out.push(...Array.from('GIF89a', (c) => c.charCodeAt(0)))
  u16(size)
  u16(size)
  out.push(0xf1, 0, 0) // global colour table of 4 entries (2 bits), no background, no aspect
  for (const [r, g, b] of palette) out.push(r, g, b)
  out.push(0x2c) // image descriptor
  u16(0)
  u16(0)
  u16(size)
  u16(size)
  out.push(0)
  const minCodeSize = 2
  out.push(minCodeSize)
  const clear = 1 << minCodeSize
  const end = clear + 1
  const codes: number[] = []
  const pixels = size * size
  for (let i = 0; i < pixels; i++) {
    if (i % 2 === 0) codes.push(clear)
    const x = i % size
    const y = Math.floor(i / size)
    codes.push(Math.floor((x + y) / 6) % 4)
  }
  codes.push(end)
  const data: number[] = []
  let bits = 0
  let count = 0
  for (const code of codes) {
    bits |= code << count
    count += 3
    while (count >= 8) {
      data.push(bits & 0xff)
      bits >>= 8
      count -= 8
    }
  }
  if (count > 0) data.push(bits & 0xff)
  for (let at = 0; at < data.length; at += 255) {
    const block = data.slice(at, at + 255)
    out.push(block.length, ...block)
  }
  out.push(0, 0x3b) // end of image data, trailer
  return Uint8Array.from(out)
}

/** JPEG bytes, 48×48 (a gradient with a white disc), encoded once by Chromium's canvas: no JPEG encoder is needed here. */
const JPEG_BASE64 = [
  [
    '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAA',
    'AAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAA',
    'ACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0',
    'AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAA',
    'AAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAM',
    'ZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZG',
    'NywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09P',
    'T0//wAARCAAwADADASIAAhEBAxEB/8QAGQAAAwEBAQAAAAAAAAAAAAAAAAIEBQYB/8QAHhAAAgIDAAMBAAAAAAAAAAAAAQIABAMFETFR4RL/xAAXAQADAQAA',
    'AAAAAAAAAAAAAAACAwUE/8QAGxEAAwADAQEAAAAAAAAAAAAAAAIRAQMSEyH/2gAMAwEAAhEDEQA/ALSYhMCYpMiltmAmKTL62ouWkGRUVEPguedi29Rcq4zk',
    'ZA6DyUPeQvNpYZ22LZTPJikwJikwBTMUky3TVltbBVyDqIP2R759kBMt0ttKuxVsh4jgoT679h651ijdjZ5zDsJ5CEqE44ze1lqbJlxjiOA4Hrv0GZhM0d7b',
    'S3snfGeogCKffPpMzCZL2TrMG9fCkmKTAmKTAHsxoVd1dqYxjR1dB4DjvItzd3bWM43dUQ+Qg52ZxMUmH6NJRDQCYpMCYhMASzH/2Q==',
  ].join(''),
  [
    '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAA',
    'AAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAA',
    'ACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0',
    'AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAA',
    'AAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAM',
    'ZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZG',
    'NywtQFdBRkxOUlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09P',
    'T0//wAARCAAwADADASIAAhEBAxEB/8QAGgAAAwEBAQEAAAAAAAAAAAAAAAMFBAEGB//EACQQAAEEAgEDBQEAAAAAAAAAAAIAAQMEBREGMVHhEiFBgcGR/8QA',
    'FwEAAwEAAAAAAAAAAAAAAAAAAgMFBP/EABsRAAMAAwEBAAAAAAAAAAAAAAACEQEDEhMh/9oADAMBAAIRAxEAPwDURJREgiSSJWiIqgRJREqVXC3rkbSAAgD9',
    'CkfW/wBSr2Ev04nlOMZIx93KN96/UPotlNC62lhMIkoiQRJJEjGqpWIltwVYbmTAJG2AM5k3fXl2U0iW3A3gp5QDlfUZs4E/bflmQbLzmCta46xT3S46Nrju',
    'pZRPn3JagUcsYRNqOQWkFu2/LOopEqvJ74XsuZxP6o42aMSb518/13UQiVTXecUVz9KxElESCJJIkYhVKtPkWQoxNEEgyRj0GRt6++qVkOR5G7EURyDHGXsQ',
    'xtrf31UoiSSJB5rbB60CJJIkESURIxyqf//Z',
  ].join(''),
]
/** WEBP bytes, 48×48 (a gradient with a white disc), encoded once by Chromium's canvas: no WEBP encoder is needed here. */
const WEBP_BASE64 = [
  [
    'UklGRtgCAABXRUJQVlA4WAoAAAAgAAAALwAALwAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAA',
    'AAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAA',
    'ACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0',
    'AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAA',
    'AAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAM',
    'ZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDgg6gAAAPAGAJ0BKjAAMAA+pUiZSaYkoq041tgBoBSJZgGEA2QGp5vSIARo',
    'G06pWv8McY/v19olTy8g0miZEO0gdWt3GWAA/uuCqUEZv/yDH60PzD2t/8W/FvxbSpibOLglomVCB8w4LtUjOb3ABK7pFds0cBofbVXs6NgjjDerU8uzP8Hp',
    'jPj2GQM4Hb7CHGzCGp4c2qAHA2Wn99FjL+HQJyWZr+lCV9viATAl+betMOPyiKzmRPaySgDyqQCLqkARzwk/+SRDDXKPO7zO6EzJZEGsn46MKtf7ARyH5Pv3',
    'yetns2oraIorSptdC4AAAA==',
  ].join(''),
  [
    'UklGRuQCAABXRUJQVlA4WAoAAAAgAAAALwAALwAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAA',
    'AAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAA',
    'ACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0',
    'AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAA',
    'AAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAM',
    'ZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDgg9gAAAFAGAJ0BKjAAMAA+qUSbSaYkIqE41tgAwBUJZgDKOUFZp2gBEXni',
    'cPqCrXUYssCJFXM+clDoGBkjtLaAAP7f8HAW7/JT/0rft3x4fVfxB866UgeE3NF8v2xD1Hd1p4h57QV4bW+Yomamm3ibraEPcYYJsjrLfzG0pe9ZEcNcNQ0L',
    'JnQbmgmLSXN7W2ogClWCgZi7TQ7Jv9CMO1G7d8f2eK79aUK/UA0HD2ABUsas13ycxPvXtdfORyGVr+VgYETWrBtDwIjvVjmmi25wXrJHAAmnIxYAc108F0qC',
    'GAc9sBVB+6mcpieY2NUbdRx2+DGVrEbtAAAAAA==',
  ].join(''),
]

const decoded = (base64: string[]) => base64.map((s) => new Uint8Array(Buffer.from(s, 'base64')))
export const DEMO_JPEGS: readonly Uint8Array[] = decoded(JPEG_BASE64)
export const DEMO_WEBPS: readonly Uint8Array[] = decoded(WEBP_BASE64)
