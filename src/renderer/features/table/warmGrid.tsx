import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { flushSync } from 'react-dom'
import { createRoot } from 'react-dom/client'
import type { FieldInfo } from '../../../contract'
import { sampleTable } from '../../api/warmup'
import { DataGrid } from './DataGrid'
import { firstPageQuery } from './queries'

const noop = () => undefined

/**
 * Render the data grid once, off-screen, while the app is idle after its first paint: the first table opened
 * in a fresh window otherwise runs the grid's code (React's mount paths, the table model, cell formatting)
 * for the first time while the user waits (the cold open's CPU profile: ~15 ms of the grid's first render).
 * One row of the decoder's warm-up sample (int64, utf8, float64, a float32 vector), into a detached element:
 * no layout, no paint, no request (its only page is given). Nothing here may fail the app.
 */
function warmGrid(): void {
  try {
    const page = sampleTable()
    const fields: FieldInfo[] = page.schema.fields.map((field) => ({
      name: field.name,
      type: String(field.type),
      nullable: field.nullable,
      ...('listSize' in field.type ? { vectorDimension: Number(field.type.listSize) } : {}),
    }))
    const tableRef = { connectionId: '', namespace: [], name: '' }
    // Its own cache, holding the one page: the app's cache never sees this table.
    const client = new QueryClient()
    client.setQueryData(firstPageQuery(tableRef, {}).queryKey, page)
    const root = createRoot(document.createElement('div'))
    flushSync(() =>
      root.render(
        <QueryClientProvider client={client}>
          <DataGrid tableRef={tableRef} label="" rowCount={page.numRows} fields={fields} columnVisibility={{}} onColumnVisibilityChange={noop} view={{}} viewKey="warm" />
        </QueryClientProvider>,
      ),
    )
    root.unmount()
  } catch {
    // Only a warm-up.
  }
}

export function warmGridWhenIdle(): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warmGrid, { timeout: 3000 })
  else setTimeout(warmGrid, 800)
}
