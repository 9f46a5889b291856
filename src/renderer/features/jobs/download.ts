import { hostKind } from '../../api'
import { harnessToken } from '../../api/transport'

/**
 * Hand a finished download export to the browser (harness only: Electron wrote the file where the
 * save dialog said). A link, because a download cannot be a fetch; the token goes in the query.
 */
export function downloadExport(jobId: string, fileName: string): void {
  if (hostKind !== 'harness') return
  const link = document.createElement('a')
  link.href = `/api/exports/${encodeURIComponent(jobId)}?token=${encodeURIComponent(harnessToken())}`
  link.download = fileName
  link.rel = 'noopener'
  document.body.append(link)
  link.click()
  link.remove()
}
