/** Above the thumbnails: the image column shown (a picker when there are several) and how to use the gallery. */
export function GalleryBar({ columns, column, rowCount, onPick }: { columns: readonly string[]; column: string; rowCount: number; onPick(column: string): void }) {
  return (
    <div className="gallery-bar">
      {columns.length > 1 ? (
        <label className="gallery-column">
          Column
          <select aria-label="Image column" value={column} onChange={(event) => onPick(event.target.value)}>
            {columns.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <span className="gallery-column">
          Column <strong>{column}</strong>
        </span>
      )}
      <span className="muted">
        {new Intl.NumberFormat('en-US').format(rowCount)} {rowCount === 1 ? 'row' : 'rows'} · Enter or a click opens a row · Esc returns to the table
      </span>
    </div>
  )
}
