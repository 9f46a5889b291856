/** A catalog on object storage (S3, GCS, Azure Blob): a cloud, distinct from a server and a local directory. */
export function CloudIcon({ className }: { className?: string }) {
  return (
    <svg width={16} height={16} viewBox="0 0 16 16" aria-hidden focusable={false} className={className}>
      <path
        d="M4.5 12.5h7.25a2.75 2.75 0 0 0 .35-5.48A3.75 3.75 0 0 0 4.9 6.1 3.2 3.2 0 0 0 4.5 12.5z"
        fill="currentColor"
        fillOpacity="0.18"
        stroke="currentColor"
        strokeWidth="1.1"
        strokeLinejoin="round"
      />
    </svg>
  )
}
