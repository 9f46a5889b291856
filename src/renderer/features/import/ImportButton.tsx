/** The sidebar's "Import…" button: a tray with an arrow into it. */
export function ImportButton({ onClick, disabled }: { onClick(): void; disabled?: boolean }) {
  return (
    <button type="button" className="icon-button" aria-label="Import files" title="Import files…" onClick={onClick} disabled={disabled}>
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round">
        <path d="M8 2v8M4.8 6.8 8 10l3.2-3.2" />
        <path d="M2.5 10.5v2a1 1 0 0 0 1 1h9a1 1 0 0 0 1-1v-2" />
      </svg>
    </button>
  )
}
