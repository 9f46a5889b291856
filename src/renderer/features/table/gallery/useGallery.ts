import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { TableInfo, TableRef } from '../../../../contract'
import { readPage } from '../../../api'
import { firstPageQuery, tableScope } from '../queries'
import { binaryFields, imageColumns } from './detect'

/** Rows sampled to tell whether a binary column holds images. */
const SAMPLE_ROWS = 32

export interface GalleryState {
  /** Binary columns whose sampled values are images (empty: no Gallery button). */
  columns: string[]
  open: boolean
  setOpen(open: boolean): void
}

/**
 * Whether the open table can be shown as a gallery: its binary columns, sampled from the first rows of the version
 * shown (page 0 of the grid when it is cached, else a read of those columns only), and whether the gallery is on
 * (from `startOpen`: a tab restored with its gallery; shown once the images are found).
 */
export function useGallery(tableRef: TableRef, info: TableInfo | null, version: number | undefined, startOpen = false): GalleryState {
  const client = useQueryClient()
  const names = useMemo(() => binaryFields(info?.schema ?? []).map((f) => f.name), [info])
  const at = version ?? info?.version
  const sample = useQuery({
    queryKey: [...tableScope(tableRef), 'gallery-sample', at ?? null, names],
    queryFn: ({ signal }) => readPage(tableRef, 0, SAMPLE_ROWS, signal, { ...(at !== undefined ? { version: at } : {}), columns: names }),
    initialData: () => (at !== undefined ? client.getQueryData(firstPageQuery(tableRef, { version: at }).queryKey) : undefined),
    enabled: info !== null && names.length > 0,
    staleTime: Infinity,
  })
  const columns = useMemo(() => (info ? imageColumns(info.schema, sample.data) : []), [info, sample.data])
  const [open, setOpen] = useState(startOpen)
  return { columns, open: open && columns.length > 0, setOpen }
}
