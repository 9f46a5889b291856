import { Binary, Utf8, makeVector, vectorFromArray } from 'apache-arrow'
import { describe, expect, it } from 'vitest'
import { batchOf, tableOf } from '../../src/core/arrow'
import { DEMO_JPEGS, DEMO_WEBPS, demoGif, demoPng } from '../../src/core/demo/images'
import { imageColumns, imageTypeOf } from '../../src/renderer/features/table/gallery/detect'

const bytes = (...values: number[]) => Uint8Array.from(values)

describe('image detection by magic bytes', () => {
  it('tells PNG, JPEG, WebP and GIF apart by their bytes', () => {
    expect(imageTypeOf(demoPng(10, 1))).toBe('image/png')
    expect(imageTypeOf(DEMO_JPEGS[0])).toBe('image/jpeg')
    expect(imageTypeOf(DEMO_WEBPS[0])).toBe('image/webp')
    expect(imageTypeOf(demoGif(200))).toBe('image/gif')
    // GIF87a too.
    expect(imageTypeOf(new TextEncoder().encode('GIF87a\x01\x00\x01\x00'))).toBe('image/gif')
  })

  it('refuses what only looks like an image, and what is not bytes', () => {
    expect(imageTypeOf(bytes())).toBeNull()
    expect(imageTypeOf(bytes(0xde, 0xad, 0xbe, 0xef))).toBeNull()
    // A PNG signature cut short, a RIFF that is not WebP (a WAV), GIF without its version, JPEG's first two bytes.
    expect(imageTypeOf(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull()
    expect(imageTypeOf(new TextEncoder().encode('RIFF\x24\x00\x00\x00WAVEfmt '))).toBeNull()
    expect(imageTypeOf(new TextEncoder().encode('GIF8'))).toBeNull()
    expect(imageTypeOf(bytes(0xff, 0xd8))).toBeNull()
    expect(imageTypeOf(new TextEncoder().encode('image.png'))).toBeNull()
    expect(imageTypeOf('\x89PNG\r\n\x1a\n')).toBeNull()
    expect(imageTypeOf(null)).toBeNull()
  })

  it('finds the binary columns whose sampled values are images', () => {
    const n = 6
    const sample = tableOf([
      batchOf({
        id: { vector: makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt(i))), nullable: false },
        name: vectorFromArray(['a', 'b', 'c', 'd', 'e', 'f'], new Utf8()),
        // Images with a null and one value that is no image: still an image column.
        photo: vectorFromArray([demoPng(0, 0), null, DEMO_JPEGS[0]!, bytes(1, 2, 3), demoGif(40), DEMO_WEBPS[1]!], new Binary()),
        // Blobs with one stray PNG among them: not a gallery.
        blob: vectorFromArray([bytes(1), bytes(2), bytes(3), demoPng(0, 0), bytes(5), bytes(6)], new Binary()),
        empty: vectorFromArray([null, null, null, null, null, null], new Binary()),
      }),
    ])
    const fields = [
      { name: 'id', type: 'Int64', nullable: false },
      { name: 'name', type: 'Utf8', nullable: true },
      { name: 'photo', type: 'Binary', nullable: true },
      { name: 'blob', type: 'Binary', nullable: true },
      { name: 'empty', type: 'Binary', nullable: true },
    ]
    expect(imageColumns(fields, sample)).toEqual(['photo'])
    expect(imageColumns(fields, undefined)).toEqual([])
  })
})
