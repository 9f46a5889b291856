import { DataType, type Table } from 'apache-arrow'
import type { FieldInfo } from '../../../../contract'
import { sniffImage, type ImageType } from '../inspectValue'

export type { ImageType }

/** The image type of a value told by its magic bytes (PNG, JPEG, WebP, GIF); null for other bytes and non-bytes. */
export function imageTypeOf(value: unknown): ImageType | null {
  return value instanceof Uint8Array ? sniffImage(value) : null
}

/** Columns that hold bytes (the only ones that can hold images). */
export function binaryFields(fields: readonly FieldInfo[]): FieldInfo[] {
  return fields.filter((f) => /binary/i.test(f.type) && f.vectorDimension === undefined)
}

/**
 * The binary columns of `sample` whose sampled values are images: at least one sniffs as an image and at least
 * half of the non-null ones do (a column of arbitrary blobs with one stray PNG header is not a gallery).
 */
export function imageColumns(fields: readonly FieldInfo[], sample: Table | undefined): string[] {
  if (!sample) return []
  const found: string[] = []
  for (const field of binaryFields(fields)) {
    const vector = sample.getChild(field.name)
    if (!vector || !(DataType.isBinary(vector.type) || DataType.isLargeBinary(vector.type) || DataType.isFixedSizeBinary(vector.type))) continue
    let values = 0
    let images = 0
    for (let i = 0; i < vector.length; i += 1) {
      const value: unknown = vector.get(i)
      if (value === null || value === undefined) continue
      values += 1
      if (imageTypeOf(value)) images += 1
    }
    if (images > 0 && images * 2 >= values) found.push(field.name)
  }
  return found
}
