import { hostname } from 'node:os'
import { randomUUID } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
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

/** How long a claimer waits for a live holder to finish before giving up. */
export const CLAIM_WAIT_MS = 30_000

export interface ClaimOptions {
  /** The lease (default {@link CLAIM_TTL_MS}). */
  ttlMs?: number
  /** How long to wait while a live holder has the name (default {@link CLAIM_WAIT_MS}; 0 = do not wait). */
  waitMs?: number
}

/**
 * Claim `key` for one create: the store's conditional create decides among racers, whoever they are. While a live
 * holder has it, wait for it to finish (its create has then either made the name — which the caller's check under
 * the claim then finds — or failed, and the name is free): so a loser hears "exists" only once the name can be seen.
 * A claim whose holder is gone (its lease expired, or its process on this machine no longer runs) is removed with a
 * conditional delete and claimed again. Null when a live holder still has it after `waitMs`.
 */
export async function claimName(store: ClaimStore, key: string, options: ClaimOptions = {}): Promise<Claim | null> {
  const ttlMs = options.ttlMs ?? CLAIM_TTL_MS
  const deadline = Date.now() + (options.waitMs ?? CLAIM_WAIT_MS)
  const owner: ClaimOwner = { token: randomUUID(), host: hostname(), pid: process.pid }
  const body = JSON.stringify(owner)
  for (let pause = 5; ; pause = Math.min(200, Math.ceil(pause * 1.5))) {
    const tag = await store.create(key, body)
    if (tag !== null) return hold(store, key, tag, body, ttlMs)
    const current = await store.read(key)
    if (current === null) continue // released meanwhile: try again at once
    if (isAbandoned(current, ttlMs)) {
      await store.remove(key, current.tag)
      continue
    }
    if (Date.now() >= deadline) return null
    await delay(pause)
  }
}

/**
 * A live holder on this machine keeps its claim however old: a starved process (a loaded machine, a paused
 * VM) whose renewals are late must not lose its name while its create still runs, or two creates would both
 * commit. Only a claim this old with a live pid is taken as a reused pid.
 */
export const REUSED_PID_AGE_FACTOR = 10

/**
 * Held by a process of this machine that has exited (or, at {@link REUSED_PID_AGE_FACTOR} leases old, whose pid
 * now names another process); held from another machine and expired.
 */
export function isAbandoned(claim: StoredClaim, ttlMs: number): boolean {
  let owner: Partial<ClaimOwner>
  try {
    owner = JSON.parse(claim.body) as Partial<ClaimOwner>
  } catch {
    return claim.ageMs > ttlMs // being written, or not ours: its lease decides
  }
  const local = owner.host === hostname() && typeof owner.pid === 'number' && Number.isSafeInteger(owner.pid) && owner.pid > 0
  if (!local) return claim.ageMs > ttlMs
  if (owner.pid === process.pid) return claim.ageMs > ttlMs * REUSED_PID_AGE_FACTOR
  try {
    process.kill(owner.pid!, 0)
    return claim.ageMs > ttlMs * REUSED_PID_AGE_FACTOR
  } catch (error) {
    // EPERM: a process we may not signal runs under that pid — alive.
    return (error as NodeJS.ErrnoException).code === 'ESRCH' || claim.ageMs > ttlMs * REUSED_PID_AGE_FACTOR
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
