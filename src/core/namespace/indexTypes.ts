import type { IndexType } from '../../contract/lifecycle'

/** Lance's index type names (`BTree`, `IvfPq`, `FTS`, `Inverted`, …) as the index types the app builds. */
export function indexTypeOf(lanceType: string): IndexType | undefined {
  const key = lanceType.toUpperCase().replace(/[^A-Z]/g, '')
  const types: Record<string, IndexType> = { BTREE: 'BTREE', BITMAP: 'BITMAP', LABELLIST: 'LABEL_LIST', FTS: 'FTS', INVERTED: 'FTS', IVFPQ: 'IVF_PQ', IVFHNSWSQ: 'IVF_HNSW_SQ' }
  return types[key]
}
