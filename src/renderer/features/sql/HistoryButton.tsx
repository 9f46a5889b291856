import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { ContextMenu } from '../../components/ContextMenu'
import { sqlHistoryQuery } from './queries'

/** A history entry's one-line label: its SQL with the whitespace folded, cut at 60 characters. */
const label = (sql: string) => {
  const line = sql.replace(/\s+/g, ' ').trim()
  return line.length > 60 ? `${line.slice(0, 59)}…` : line
}

/** **History**: this catalog's last queries, newest first; choosing one puts it in the editor. */
export function HistoryButton({ connectionId, onChoose }: { connectionId: string; onChoose(sql: string): void }) {
  const history = useQuery(sqlHistoryQuery(connectionId)).data ?? []
  const [at, setAt] = useState<{ x: number; y: number } | null>(null)
  const items = history.slice(0, 30).map((entry, i) => ({ id: String(i), label: `${entry.ok ? '' : '✗ '}${label(entry.sql)}`, disabled: false, sql: entry.sql }))
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
      {at && <ContextMenu x={at.x} y={at.y} label="Query history" items={items} onChoose={(item) => {
            setAt(null)
            onChoose(item.sql)
          }} onClose={() => setAt(null)} />}
    </>
  )
}
