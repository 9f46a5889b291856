/**
 * A process that exits in the middle of a native read ends: polars' threads write into a pipe this process reads,
 * and an exit waits for them. A reading end left open and unread (a full pipe) held a closed window's app for ever
 * (a desktop flow, and 1 exit in 15 at a random moment of a 400k-row CSV read). Tried: once the first batch is in
 * (polars then blocks on the full pipe, the state that held the exit), and at moments spread over the read.
 */
import { spawn } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { makeTempDir, removeDir } from '../../helpers/catalog'
import { bundleScript } from '../../helpers/bundle'

const FIXTURE = join(__dirname, 'fixtures', 'exitDuringRead.ts')
/** Far longer than an exit takes (well under a second): reaching it means the process would never have ended. */
const HUNG_AFTER_MS = 30_000

let dir: string
let file: string
beforeAll(async () => {
  dir = await makeTempDir('lcb-exit-')
  file = join(dir, 'big.csv')
  await writeFile(file, ['id,label', ...Array.from({ length: 300_000 }, (_, i) => `${i},label-${i}-${'x'.repeat(40)}`)].join('\n'))
})
afterAll(async () => {
  await removeDir(dir)
})

/** Run the fixture; what it printed, and whether it ended by itself (else it is killed after HUNG_AFTER_MS). */
async function run(when: string): Promise<{ ended: boolean; output: string }> {
  const fixture = await bundleScript(FIXTURE)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fixture, file, when], { cwd: join(__dirname, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const hung = setTimeout(() => child.kill('SIGKILL'), HUNG_AFTER_MS)
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      clearTimeout(hung)
      resolve({ ended: signal === null && code === 0, output })
    })
  })
}

it('exits once the first batch is in, while polars blocks on the full pipe', async () => {
  const { ended, output } = await run('first-batch')
  expect(ended, output).toBe(true)
  // polars read it: the native path was the one interrupted.
  expect(Number(/^native (\d+)$/m.exec(output)?.[1]), output).toBeGreaterThan(0)
})

it('exits at moments spread over the read', async () => {
  // From before polars starts (the timer starts once the modules are loaded) to about its end, all at once. The old reader hung in about 1 exit of 15 here (its
  // reading end opened in the thread pool, not yet known to JS): a sample, not a proof — the proof is that every
  // descriptor is known from its first moment (PipeReader).
  const moments = [0, 150, 300, 450]
  const results = await Promise.all(moments.map(async (when) => ({ when, ...(await run(String(when))) })))
  expect(results.filter((r) => !r.ended).map((r) => `${r.when} ms: ${r.output}`)).toEqual([])
})
