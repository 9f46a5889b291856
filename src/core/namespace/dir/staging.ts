import { randomBytes } from 'node:crypto'

/**
 * Tables being written under a hidden name until they are complete. The name carries the writer's process id,
 * so a leftover (its writer is gone) can be told apart from a write in flight in another process.
 * `.lcb-staging-<pid>-<random>-<name>`: a valid component, recognisable in any listing (lancedb users see it
 * only while an import runs or after a crash, until the catalog is opened by this app again).
 */
export const STAGING_PREFIX = '.lcb-staging-'

export function stagingName(name: string, pid = process.pid): string {
  return `${STAGING_PREFIX}${pid}-${randomBytes(3).toString('hex')}-${name}`.slice(0, 255)
}

export function isStagingName(name: string): boolean {
  return name.startsWith(STAGING_PREFIX)
}

/** The writer's process id, or null when the name is not one of ours. */
export function stagingPid(name: string): number | null {
  const match = /^\.lcb-staging-(\d+)-/.exec(name)
  return match ? Number(match[1]) : null
}

/** A set-aside directory name (no `.lance` suffix, so directory listing never shows it as a table). */
export function asideDirName(name: string, pid = process.pid): string {
  return `.lcb-replaced-${pid}-${randomBytes(3).toString('hex')}-${name}`.slice(0, 255)
}
