import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { ContextMenu } from '../../components/ContextMenu'
import { sqlHistoryQuery } from './queries'

/** A history entry's one-line label: its SQL with the whitespace folded, cut at 60 characters. */
const label = (sql: string) => {
  const line = sql.replace(/\s+/g, ' ').trim()
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}

/** This catalog's last queries, newest first (the same cache for the button and its More tools entry). */
export function useHistory(connectionId: string) {
  return useQuery(sqlHistoryQuery(connectionId)).data ?? []
}

/** The menu of the last queries at a viewport point; choosing one puts it in the editor. */
function HistoryMenu({ connectionId, at, align, onChoose, onClose }: { connectionId: string; at: { x: number; y: number }; align?: 'start' | 'end'; onChoose(sql: string): void; onClose(): void }) {
  const history = useHistory(connectionId)
  const items = history.slice(0, 30).map((entry, i) => ({ id: String(i), label: `${entry.ok ? '' : '✗ '}${label(entry.sql)}`, disabled: false, sql: entry.sql }))
  return <ContextMenu x={at.x} y={at.y} align={align} label="Query history" items={items} onChoose={(item) => {
        onClose()
        onChoose(item.sql)
      }} onClose={onClose} />
}

/** **History**: this catalog's last queries, newest first; choosing one puts it in the editor. */
export function HistoryButton({ connectionId, onChoose }: { connectionId: string; onChoose(sql: string): void }) {
  const history = useHistory(connectionId)
  const [at, setAt] = useState<{ x: number; y: number } | null>(null)
  return (
    <>
      <button
        type="button"
        className="button"
        aria-haspopup="menu"
        aria-expanded={at !== null}
        disabled={history.length === 0}
        onClick={(event) => {
          const box = event.currentTarget.getBoundingClientRect()
          setAt({ x: box.left, y: box.bottom + 2 })
        }}
      >
        History
      </button>
      {at && <HistoryMenu connectionId={connectionId} at={at} onChoose={onChoose} onClose={() => setAt(null)} />}
    </>
  )
}

/** History opened from the toolbar's More tools: the same menu, under the More tools button (`at`, its corner). */
export function HistoryPopup({ connectionId, at, onChoose, close }: { connectionId: string; at: { x: number; y: number }; onChoose(sql: string): void; close(focusBack?: boolean): void }) {
  return <HistoryMenu connectionId={connectionId} at={at} align="end" onChoose={onChoose} onClose={() => close()} />
}
