import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { onHostEvent } from '../api'
import { useAssistant } from '../features/assistant'
import { useOpenCatalog, useRemote } from '../features/connections'
import { useNavigation } from '../features/navigation'
import { refreshTree } from '../features/tree'

/** Menu commands from main (Electron only). */
export function useAppCommands({ canPickDirectory, importFiles, newQuery }: { canPickDirectory: boolean; importFiles(): void; newQuery(): void }) {
  const client = useQueryClient()
  const { expanded, showStart, selection } = useNavigation()
  const { pickDirectory } = useOpenCatalog()
  const { openNew } = useRemote()
  const assistant = useAssistant()
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
        // For the catalog of the selection (the first open one when nothing is selected).
        else if (command === 'connect-assistant') assistant.open(selection ? (selection.kind === 'table' ? selection.ref.connectionId : selection.connectionId) : undefined)
      }),
    [canPickDirectory, pickDirectory, showStart, client, expanded, openNew, importFiles, newQuery, assistant, selection],
  )
}
