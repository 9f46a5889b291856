/** Small inline SVG icons (inline elements are not subject to the CSP's img-src). */
interface IconProps {
  className?: string
}

const common = { width: 16, height: 16, viewBox: '0 0 16 16', 'aria-hidden': true, focusable: false } as const

export function FolderIcon({ className, open }: IconProps & { open?: boolean }) {
  return (
    <svg {...common} className={className}>
      {open ? (
        <path d="M1.5 4.5v8a1 1 0 0 0 1 1h10.2a1 1 0 0 0 .95-.68l1.3-4.3a.8.8 0 0 0-.77-1.02H4.2a1 1 0 0 0-.95.68L1.5 12.5M1.5 4.5a1 1 0 0 1 1-1h3.3l1.4 1.5h4.3a1 1 0 0 1 1 1v1.2" fill="none" stroke="currentColor" strokeWidth="1.1" strokeLinejoin="round" />
      ) : (
        <path d="M1.5 4a1 1 0 0 1 1-1h3.3l1.4 1.5h6.3a1 1 0 0 1 1 1V12a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1V4z" fill="currentColor" fillOpacity="0.18" stroke="currentColor" strokeWidth="1.1" strokeLinejoin="round" />
      )}
    </svg>
  )
}

export function TableIcon({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <rect x="1.75" y="2.75" width="12.5" height="10.5" rx="1.2" fill="currentColor" fillOpacity="0.12" stroke="currentColor" strokeWidth="1.1" />
      <path d="M1.75 6h12.5M1.75 9.5h12.5M6 6v7.25" stroke="currentColor" strokeWidth="1.1" />
    </svg>
  )
}

export function DatabaseIcon({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <ellipse cx="8" cy="3.8" rx="5.5" ry="2" fill="currentColor" fillOpacity="0.18" stroke="currentColor" strokeWidth="1.1" />
      <path d="M2.5 3.8v8.4c0 1.1 2.46 2 5.5 2s5.5-.9 5.5-2V3.8M2.5 8c0 1.1 2.46 2 5.5 2s5.5-.9 5.5-2" fill="none" stroke="currentColor" strokeWidth="1.1" />
    </svg>
  )
}

export function ChevronIcon({ className, expanded }: IconProps & { expanded: boolean }) {
  return (
    <svg {...common} className={className} style={{ transform: expanded ? 'rotate(90deg)' : undefined }}>
      <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

export function RefreshIcon({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M13 8a5 5 0 1 1-1.6-3.7M13 2.5v2.5h-2.5" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

export function LinkIcon({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M7 9.5a2.5 2.5 0 0 0 3.5 0l2-2a2.5 2.5 0 0 0-3.5-3.5l-.8.8M9 6.5a2.5 2.5 0 0 0-3.5 0l-2 2A2.5 2.5 0 0 0 7 12l.8-.8" fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  )
}

export function PlusIcon({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M8 3v10M3 8h10" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
    </svg>
  )
}

export function CloseIcon({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="1.3" strokeLinecap="round" />
    </svg>
  )
}

export function WarningIcon({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M8 1.8l6.5 11.4H1.5L8 1.8z" fill="currentColor" fillOpacity="0.15" stroke="currentColor" strokeWidth="1.1" strokeLinejoin="round" />
      <path d="M8 6v3.4" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" />
      <circle cx="8" cy="11.3" r="0.8" fill="currentColor" />
    </svg>
  )
}

export function ColumnsIcon({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <rect x="1.75" y="2.75" width="12.5" height="10.5" rx="1.2" fill="none" stroke="currentColor" strokeWidth="1.1" />
      <path d="M6 2.75v10.5M10 2.75v10.5" stroke="currentColor" strokeWidth="1.1" />
    </svg>
  )
}

export function SchemaIcon({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <path d="M2.5 3.5h11M2.5 8h11M2.5 12.5h11" stroke="currentColor" strokeWidth="1.2" strokeLinecap="round" />
      <circle cx="5" cy="3.5" r="1.2" fill="currentColor" />
      <circle cx="9" cy="8" r="1.2" fill="currentColor" />
      <circle cx="6.5" cy="12.5" r="1.2" fill="currentColor" />
    </svg>
  )
}

export function MoreIcon({ className }: IconProps) {
  return (
    <svg {...common} className={className}>
      <circle cx="3.5" cy="8" r="1.2" fill="currentColor" />
      <circle cx="8" cy="8" r="1.2" fill="currentColor" />
      <circle cx="12.5" cy="8" r="1.2" fill="currentColor" />
    </svg>
  )
}
