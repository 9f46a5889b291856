import { useMutation } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { ConnectionInfo } from '../../../contract'
import { call } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { useNavigation } from '../navigation'
import { createCatalog, openDirectory } from './mutations'

/**
 * Opening catalogs: a connection the core opened (its write's rule put it in the open connections, see
 * queries/invalidate.ts) is selected. `openPath` opens (or creates) a
 * directory catalog; a failure shows the start screen with the reason.
 */
export function useOpenCatalog() {
  const { selectNamespace, hideStart, showStart, setOpening } = useNavigation()
  const { mutateAsync: open } = useMutation(openDirectory)
  const { mutateAsync: create } = useMutation(createCatalog)

  const opened = useCallback(
    (connection: ConnectionInfo) => {
      selectNamespace(connection.id, [])
      hideStart()
    },
    [selectNamespace, hideStart],
  )

  const openPath = useCallback(
    (path: string, creating = false) => {
      // The start screen's "Opening…" lives with navigation (the start screen is shown from there).
      setOpening(true)
      const write = creating ? create : open
      write({ path })
        .then(opened)
        .catch((error: unknown) => showStart(errorData(error)))
        .finally(() => setOpening(false))
    },
    [create, open, opened, setOpening, showStart],
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
