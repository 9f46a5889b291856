/** A catalog server (REST connection): a globe-like node with a link, distinct from a local directory's cylinder. */
export function ServerIcon({ className }: { className?: string }) {
  return (
    <svg width={16} height={16} viewBox="0 0 16 16" aria-hidden focusable={false} className={className}>
      <rect x="2" y="2.25" width="12" height="4.5" rx="1.2" fill="currentColor" fillOpacity="0.18" stroke="currentColor" strokeWidth="1.1" />
      <rect x="2" y="9.25" width="12" height="4.5" rx="1.2" fill="currentColor" fillOpacity="0.18" stroke="currentColor" strokeWidth="1.1" />
      <circle cx="4.6" cy="4.5" r="0.8" fill="currentColor" />
      <circle cx="4.6" cy="11.5" r="0.8" fill="currentColor" />
      <path d="M7.5 4.5h4.5M7.5 11.5h4.5" stroke="currentColor" strokeWidth="1.1" />
    </svg>
  )
}
