import { useState } from 'react'

/** The **Full-text search** box (over the columns with an FTS index): Enter searches, Escape or an empty box clears. */
export function TextSearch({ ftsColumns, textQuery, onTextSearch }: { ftsColumns: readonly string[]; textQuery: string; onTextSearch(query: string): void }) {
  const [search, setSearch] = useState(textQuery)
  // A search set from elsewhere (cleared with the view) shows in the box: adjusted while rendering, not in an effect.
  const [shown, setShown] = useState(textQuery)
  if (shown !== textQuery) {
    setShown(textQuery)
    setSearch(textQuery)
  }
  return (
    <input
      className="search-input"
      type="search"
      aria-label="Full-text search"
      title={`Full-text search in ${ftsColumns.join(', ')} (FTS index)`}
      placeholder={`Search ${ftsColumns.join(', ')}`}
      value={search}
      onChange={(event) => {
        setSearch(event.target.value)
        if (event.target.value === '' && textQuery !== '') onTextSearch('')
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter') onTextSearch(search.trim())
        else if (event.key === 'Escape') {
          setSearch('')
          if (textQuery !== '') onTextSearch('')
        }
      }}
    />
  )
}
