import { readFileSync } from 'node:fs'

/** Poll every 5 ms until `done()` holds (for what no event tells: /proc, bytes gathered so far). */
export async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 5))
}

/** Wait for the real condition, a zombie: a kill is delivered asynchronously. Linux only. */
export function untilZombie(pid: number): Promise<void> {
  return until(() => readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] === 'Z')
}
