import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import type { ClaimStore, StoredClaim } from './store'

/** How long a claim lives without renewal: a claimer that died is taken over after this. */
export const CLAIM_TTL_MS = 30_000

/** What a claim records of its holder: enough to tell, on the same machine, that it is no longer running. */
export interface ClaimOwner {
  token: string
  host: string
  pid: number
}

/** A name held by this process until {@link Claim.release}; renewed meanwhile so it never expires under it. */
export interface Claim {
  release(): Promise<void>
}

/**
 * Claim `key` for one create: the store's conditional create decides among racers, whoever they are. A claim
 * whose holder is gone (its lease expired, or its process on this machine no longer runs) is removed with a
 * conditional delete and claimed again. Null when a live holder has it: that create must lose.
 */
export async function claimName(store: ClaimStore, key: string, ttlMs = CLAIM_TTL_MS): Promise<Claim | null> {
  const owner: ClaimOwner = { token: randomUUID(), host: hostname(), pid: process.pid }
  const body = JSON.stringify(owner)
  for (let attempt = 0; attempt < 4; attempt++) {
    const tag = await store.create(key, body)
    if (tag !== null) return hold(store, key, tag, body, ttlMs)
    const current = await store.read(key)
    if (current === null) continue // released meanwhile: try again
    if (!isAbandoned(current, ttlMs)) return null
    await store.remove(key, current.tag)
  }
  return null
}

/** Expired, or held by a process of this machine that has exited. */
export function isAbandoned(claim: StoredClaim, ttlMs: number): boolean {
  if (claim.ageMs > ttlMs) return true
  let owner: Partial<ClaimOwner>
  try {
    owner = JSON.parse(claim.body) as Partial<ClaimOwner>
  } catch {
    return false // being written: give it its lease
  }
  if (owner.host !== hostname() || typeof owner.pid !== 'number' || !Number.isSafeInteger(owner.pid) || owner.pid <= 0) return false
  if (owner.pid === process.pid) return false
  try {
    process.kill(owner.pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}

function hold(store: ClaimStore, key: string, firstTag: string, body: string, ttlMs: number): Claim {
  let tag: string | null = firstTag
  let renewing: Promise<void> = Promise.resolve()
  // Renewed at a third of its lease, so a slow create on a loaded machine keeps its name.
  const timer = setInterval(() => {
    renewing = renewing.then(async () => {
      if (tag !== null) tag = await store.renew(key, tag, body).catch(() => tag)
    })
  }, Math.max(10, Math.floor(ttlMs / 3)))
  timer.unref()
  return {
    async release() {
      clearInterval(timer)
      await renewing
      if (tag !== null) await store.remove(key, tag).catch(() => false)
      tag = null
    },
  }
}
