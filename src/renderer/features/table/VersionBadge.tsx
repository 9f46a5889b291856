import { DiffBanner } from './DiffBanner'
import type { ViewVersion } from './useViewVersion'

/** "version n of m — read-only" in the table header, with the way back; or, while changes are shown, their header. */
export function VersionBadge({ version }: { version: ViewVersion }) {
  if (version.diff) return <DiffBanner result={version.diff.result} side={version.diff.side} onSide={version.setDiffSide} onClose={version.closeDiff} />
  if (!version.opened) return null
  return (
    <div className="readonly-badge" role="note" aria-label={`version ${version.opened.version} of ${version.opened.latest} — read-only`}>
      <span>
        version {version.opened.version} of {version.opened.latest} — read-only
      </span>
      <button type="button" className="link-button" onClick={() => version.setOpened(null)}>
        Back to latest
      </button>
    </div>
  )
}
