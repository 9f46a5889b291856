import { queryOptions } from '@tanstack/react-query'
import { call } from '../api'
import { keys } from './keys'

/**
 * The data file formats of a catalog's tables and the default for a new table (`catalog/dataFormats`): read for the
 * import sheet's and New table's format choice. A failed read is no error on screen: the core then takes the
 * catalog's default itself, so it is not retried.
 */
export function catalogFormatsQuery(connectionId: string) {
  return queryOptions({
    queryKey: keys.dataFormats(connectionId),
    queryFn: () => call('catalog/dataFormats', { connectionId }),
    staleTime: 0,
    retry: false,
  })
}
