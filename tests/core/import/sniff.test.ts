import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src/contract'
import { sniffBytes } from '../../../src/core/import/sniff'

const b = (s: string | number[]) => (typeof s === 'string' ? Buffer.from(s) : Buffer.from(s))

describe('sniffBytes tells formats apart by their bytes', () => {
  it('recognises the binary magics', () => {
    expect(sniffBytes(b('ARROW1\0\0rest'), 100)).toBe('arrow-file')
    expect(sniffBytes(b('PAR1xxxx'), 100)).toBe('parquet')
    expect(sniffBytes(b([0xff, 0xff, 0xff, 0xff, 0x10, 0, 0, 0]), 100)).toBe('arrow-stream')
    // pre-0.15 stream: a small little-endian metadata length, no continuation marker
    expect(sniffBytes(b([0x10, 0, 0, 0, 0x0c, 0, 0, 0, 1, 2]), 100)).toBe('arrow-stream')
  })

  it('tells JSON lines from CSV by content, whatever the name', () => {
    expect(sniffBytes(b('{"a": 1}\n{"a": 2}\n'), 18)).toBe('jsonl')
    expect(sniffBytes(b('\uFEFF  {"a": 1}\n'), 14)).toBe('jsonl')
    expect(sniffBytes(b('a,b\n1,2\n'), 8)).toBe('csv')
    expect(sniffBytes(b('name\tvalue\nx\t1\n'), 15)).toBe('csv')
  })

  it('refuses empty, whitespace-only and binary files with clear errors', () => {
    expect(() => sniffBytes(b(''), 0, 'x.arrow')).toThrowError(/x\.arrow is empty \(0 bytes\)/)
    expect(() => sniffBytes(b('  \n\n'), 4)).toThrowError(/only whitespace/)
    const binary = b([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d])
    try {
      sniffBytes(binary, 12, 'photo.png')
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(AppError)
      expect((error as AppError).code).toBe('unsupported')
      expect((error as AppError).message).toMatch(/photo\.png is not a format import understands/)
    }
  })
})

describe('sniffBytes names formats dropped by mistake', () => {
  it.each([
    ['FEA1\0\0\0\0', /Feather v1/],
    [[0x1f, 0x8b, 8, 0, 0, 0], /gzip-compressed/],
    ['PK\x03\x04\0\0', /zip archive/],
  ] as const)('%s', (bytes, message) => {
    expect(() => sniffBytes(b(bytes as string | number[]), 100, 'x')).toThrowError(message)
  })
})
