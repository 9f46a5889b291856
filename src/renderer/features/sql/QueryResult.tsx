import { memo, useMemo, useState } from 'react'
import type { SqlQueryInfo } from '../../../contract'
import { Grid, type ColumnVisibility } from '../table'
import { queryPageSource } from './queryPageSource'

/**
 * A query's result as a grid named **Result**: the table's grid (virtualized, copy, the cell inspector) paging
 * through `sql/page`. While the query runs the grid holds the rows known so far and grows as more arrive. The Map
 * selects a row here (`selectRow`).
 */
export const QueryResult = memo(function QueryResult({ info, selectRow }: { info: SqlQueryInfo; selectRow?: { row: number; nonce: number } }) {
  const source = useMemo(() => queryPageSource(info.queryId), [info.queryId])
  const [visibility, setVisibility] = useState<ColumnVisibility>({})
  const rowCount = info.rowCount ?? info.rowsSoFar
  return (
    <Grid
      source={source}
      label="Result"
      rowCount={rowCount}
      fields={info.columns}
      columnVisibility={visibility}
      onColumnVisibilityChange={setVisibility}
      emptyText={info.state === 'running' ? 'No rows yet' : 'The query returned no rows'}
      selectRow={selectRow}
    />
  )
})
