import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { PanelContext } from '../../components/dock/registry'
import { invalidate } from '../../queries/invalidate'
import { useLifecycleBlocks } from './useLifecycleBlocks'
import { IndexesPanel } from './IndexesPanel'
import { StatsPanel } from './StatsPanel'
import { VersionsPanel } from './VersionsPanel'

export type LifecyclePanelKind = 'versions' | 'indexes' | 'stats'

/**
 * One of the table's lifecycle panels (Versions, Indexes, Stats) in a dock. What a panel's write makes stale (the
 * open view among it) is its rule's: queries/invalidate.ts. Writes go to the latest version (`context.tableRef`);
 * an old version open read-only says so on every write button.
 */
export function LifecyclePanel({ kind, context }: { kind: LifecyclePanelKind; context: PanelContext }) {
  // What the connection's server lacks (REST): re-read each time a panel has loaded its list.
  const client = useQueryClient()
  const { tableRef, info, writeBlock: block, versions, close } = context
  const { connectionId } = tableRef
  const settled = useCallback(() => void invalidate.capabilities(client, connectionId), [client, connectionId])
  const refused = useLifecycleBlocks(connectionId, kind)
  const fields = info.schema
  if (kind === 'versions')
    return (
      <VersionsPanel
        tableRef={tableRef}
        openVersion={versions.opened?.version ?? null}
        writeBlock={block ?? refused('table.tagWrite', 'table.tags')}
        restoreBlock={block ?? refused('table.restore', 'table.versions')}
        onSettled={settled}
        fields={fields}
        onOpen={versions.open}
        onLatest={versions.backToLatest}
        onShowChanges={(result) => {
          versions.showChanges(result)
          close()
        }}
        onClose={close}
      />
    )
  if (kind === 'indexes')
    return <IndexesPanel tableRef={tableRef} fields={fields} writeBlock={block ?? refused('table.createIndex', 'table.indexes')} dropBlock={block ?? refused('table.dropIndex', 'table.indexes')} onSettled={settled} onClose={close} />
  return <StatsPanel tableRef={tableRef} fields={fields} writeBlock={block ?? refused('table.alterSchema')} optimizeBlock={block ?? refused('table.optimize', 'table.stats')} onSettled={settled} onClose={close} />
}
