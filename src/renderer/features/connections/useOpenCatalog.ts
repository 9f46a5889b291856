import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { ConnectionInfo } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { keys } from '../../queries/keys'
import { useNavigation } from '../navigation'
import { putConnection } from '../../queries/connections'

/**
 * Opening catalogs: a connection the core opened joins the tree and is selected. `openPath` opens (or creates) a
 * directory catalog; a failure shows the start screen with the reason.
 */
export function useOpenCatalog() {
  const client = useQueryClient()
  const { selectNamespace, hideStart, showStart, setOpening } = useNavigation()

  const opened = useCallback(
    (connection: ConnectionInfo) => {
      putConnection(client, connection)
      selectNamespace(connection.id, [])
      hideStart()
    },
    [client, selectNamespace, hideStart],
  )

  const openPath = useCallback(
    (path: string, create = false) => {
      setOpening(true)
      call(create ? 'connections/createCatalog' : 'connections/openDirectory', { path })
        .then((connection) => {
          opened(connection)
          void client.invalidateQueries({ queryKey: keys.recents })
        })
        .catch((error: unknown) => showStart(errorData(error)))
        .finally(() => setOpening(false))
    },
    [client, opened, setOpening, showStart],
  )

  const pickDirectory = useCallback(() => {
    call('dialogs/pickDirectory', {})
      .then(({ path }) => {
        if (path) openPath(path)
      })
      .catch((error: unknown) => showStart(errorData(error)))
  }, [openPath, showStart])

  return { opened, openPath, pickDirectory }
}
