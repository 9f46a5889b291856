import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { onHostEvent } from '../api'
import { useOpenCatalog, useRemote } from '../features/connections'
import { useNavigation } from '../features/navigation'
import { refreshTree } from '../features/tree'

/** Menu commands from main (Electron only). */
export function useAppCommands({ canPickDirectory, importFiles, newQuery }: { canPickDirectory: boolean; importFiles(): void; newQuery(): void }) {
  const client = useQueryClient()
  const { expanded, showStart } = useNavigation()
  const { pickDirectory } = useOpenCatalog()
  const { openNew } = useRemote()
  useEffect(
    () =>
      onHostEvent('app/command', ({ command }) => {
        if (command === 'open-directory') {
          if (canPickDirectory) pickDirectory()
          else showStart()
        } else if (command === 'refresh') refreshTree(client, expanded)
        else if (command === 'connect-server') openNew()
        else if (command === 'import') importFiles()
        else if (command === 'new-query') newQuery()
      }),
    [canPickDirectory, pickDirectory, showStart, client, expanded, openNew, importFiles, newQuery],
  )
}
