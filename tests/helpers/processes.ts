import { existsSync, readFileSync } from 'node:fs'

/** Poll every 5 ms until `done()` holds (for what no event tells: /proc, bytes gathered so far). */
export async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 5))
}

/** /proc/<pid>/stat's fields after the command's name: [0] the state letter (R, S, Z, …), [17] the thread count. */
function statFields(pid: number): string[] {
  return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')
}

/** Wait for the real condition, a zombie: a kill is delivered asynchronously. Linux only. */
export function untilZombie(pid: number): Promise<void> {
  return until(() => statFields(pid)[0] === 'Z')
}

/**
 * Block this thread (no event-loop turn, so Node cannot see the child's exit) until process `pid` has wholly
 * ended: on Linux until /proc shows it a zombie with one thread left — its first thread turns zombie while the
 * others still exit, and its files (an IPC socket among them) close with the last; elsewhere for a second.
 */
export function untilEndedUnseen(pid: number): void {
  const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
  if (!existsSync(`/proc/${pid}/stat`)) return void sleep(1000)
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; sleep(10)) {
    const fields = statFields(pid)
    if (fields[0] === 'Z' && fields[17] === '1') return
  }
  throw new Error(`process ${pid} did not end within 30 s`)
}
