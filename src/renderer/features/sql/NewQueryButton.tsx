/** The sidebar's **New query** button: a query view over the selected catalog. */
export function NewQueryButton({ onClick, disabled }: { onClick(): void; disabled?: boolean }) {
  return (
    <button type="button" className="icon-button" aria-label="New query" title="New query (SQL)" onClick={onClick} disabled={disabled}>
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
        <path d="M2.5 3.5h11v9h-11z" />
        <path d="M4.8 6.5 6.5 8l-1.7 1.5M8 10h3" />
      </svg>
    </button>
  )
}
