import { AppError, type TableRef } from '../../contract'

/**
 * Writes to one table, one at a time, in this app.
 *
 * Lance commits optimistically: two writers that overlap on a table may both do their work and one of them
 * is refused at commit ("Retryable commit conflict … Please retry"). An index build is the costly case —
 * minutes of work thrown away when an Optimize (a Rewrite of the fragments it indexed) lands first — so the
 * app never starts two writes to the same table at once:
 *
 * - index builds on a table run one after another (a later one waits, and its job says so);
 * - any other write (optimize, restore, schema changes, dropping an index) waits for the writes before it,
 *   but is **refused with the reason** while an index build is running or waiting on that table: a build can
 *   take minutes and Lance cannot stop it, so waiting would leave the user's action hanging without a word.
 *
 * Writers outside the app (another process, another app) are not covered; {@link retryConflicts} handles the
 * conflicts they cause.
 */
export class TableWrites {
  private readonly tables = new Map<string, TableQueue>()

  /** Index builds running or waiting on `table`, oldest first (their index names). */
  builds(table: TableRef): string[] {
    return (this.tables.get(keyOf(table))?.entries ?? []).filter((e) => e.kind === 'build').map((e) => e.label)
  }

  /**
   * Run an index build after every write queued on `table` before it; `onWaiting` hears what it waits for
   * (called only when it has to wait).
   */
  build<T>(table: TableRef, label: string, work: () => Promise<T>, onWaiting?: (what: string) => void): Promise<T> {
    return this.enqueue(table, { kind: 'build', label }, work, onWaiting)
  }

  /** Run a short write after the writes before it; refused (`conflict`) while an index build runs or waits on `table`. */
  write<T>(table: TableRef, operation: string, work: () => Promise<T>): Promise<T> {
    const builds = this.builds(table)
    if (builds.length > 0) throw buildRunning(operation, builds)
    return this.enqueue(table, { kind: 'write', label: operation }, work)
  }

  private enqueue<T>(table: TableRef, entry: { kind: 'build' | 'write'; label: string }, work: () => Promise<T>, onWaiting?: (what: string) => void): Promise<T> {
    const key = keyOf(table)
    let queue = this.tables.get(key)
    if (!queue) {
      queue = { entries: [], tail: Promise.resolve() }
      this.tables.set(key, queue)
    }
    const before = queue.entries[queue.entries.length - 1]
    const item = { ...entry }
    queue.entries.push(item)
    if (before && onWaiting) onWaiting(before.kind === 'build' ? `index ${before.label}` : before.label)
    const q = queue
    const run = q.tail.then(work)
    q.tail = run.then(
      () => undefined,
      () => undefined,
    )
    void q.tail.then(() => {
      q.entries.splice(q.entries.indexOf(item), 1)
      if (q.entries.length === 0 && this.tables.get(key) === q) this.tables.delete(key)
    })
    return run
  }
}

interface TableQueue {
  entries: { kind: 'build' | 'write'; label: string }[]
  tail: Promise<void>
}

const keyOf = (t: TableRef) => JSON.stringify([t.connectionId, t.namespace, t.name])

function buildRunning(operation: string, builds: string[]): AppError {
  const names = builds.map((b) => `“${b}”`).join(', ')
  return new AppError('conflict', `${capitalise(operation)} cannot run now: index ${names} ${builds.length === 1 ? 'is' : 'are'} being built on this table`, {
    hint: 'Try again when the build has ended (the Jobs panel shows it), or cancel the build there',
  })
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/** Attempts a write gets when Lance (or a REST server) says another commit won the race and asks to retry. */
export const CONFLICT_ATTEMPTS = 3

/** Lance's "please retry" conflicts (and our server's word for them): the write can simply run again. */
export function isRetryableConflict(error: unknown): boolean {
  const texts: string[] = []
  if (error instanceof AppError) {
    texts.push(error.message, error.detail ?? '')
  } else if (error instanceof Error) texts.push(error.message)
  else texts.push(String(error))
  return texts.some((t) => /Retryable commit conflict|preempted by concurrent transaction|Please retry|Another writer changed the catalog at the same time/i.test(t))
}

/**
 * Run `work` again (up to {@link CONFLICT_ATTEMPTS} times in all) while it fails with a retryable commit conflict:
 * every attempt opens the table afresh, so it builds on what the other writer committed. When the attempts
 * run out, the error says so in words; Lance's own text stays in `detail`.
 */
export async function retryConflicts<T>(operation: string, work: (attempt: number) => Promise<T>, attempts = CONFLICT_ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(attempt)
    } catch (error) {
      if (!isRetryableConflict(error)) throw error
      if (attempt >= attempts) {
        const detail = error instanceof AppError ? (error.detail ?? error.message) : error instanceof Error ? error.message : String(error)
        throw new AppError('conflict', `Another writer kept changing the table while ${operation} ran (tried ${attempts} times)`, {
          hint: 'Try again when the other writer has finished',
          detail: detail.replace(/,?\s*\/(usr\/local\/cargo|rustc)\/[^\s,]+/g, '').slice(0, 2000),
        })
      }
    }
  }
}
