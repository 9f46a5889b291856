import { AppError, DEFAULT_DATA_FORMAT, type CatalogDataFormats, type DataFormat } from '../../contract'
import type { NamespaceClient } from './client'

/**
 * The catalog's data formats and the default for new tables, on any client. A client that cannot read them (a REST
 * server, which creates its tables itself) answers Lance's default and `choosable: false`: the app cannot choose.
 */
export async function catalogFormats(client: NamespaceClient): Promise<CatalogDataFormats> {
  if (client.catalogDataFormats) return client.catalogDataFormats()
  return { default: DEFAULT_DATA_FORMAT, counts: {}, tablesRead: 0, limited: false, choosable: false, unknownReason: 'the server decides the format of the tables it creates' }
}

/** A format asked for where the client cannot write it is refused in words, not ignored. */
export function assertFormatChoosable(client: NamespaceClient, dataFormat: DataFormat | undefined): void {
  if (dataFormat === undefined || client.catalogDataFormats) return
  throw new AppError('unsupported', 'This catalog decides the file format of its new tables itself (a REST server): the app cannot choose it', {
    hint: 'Leave the file format unset for this catalog',
  })
}
