import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { bundleScript } from '../helpers/bundle'
import { buildNestedCatalog, makeTempDir, removeDir } from '../helpers/catalog'

/**
 * Closing a catalog while its calls run must not touch freed memory. lancedb's own close() frees the native
 * connection or table at once, under any call still borrowing it; that crashed a Playwright worker with
 * "malloc(): unsorted double linked list corrupted" as a harness closed at the end of a test while the page still
 * loaded the tree. The fixture closes clients mid-call 150 times in a child process whose glibc fills freed memory
 * with a pattern (glibc.malloc.perturb), so a read of freed memory crashes at once instead of one run in thirty:
 * closing lancedb's handles there died of SIGSEGV in 4 of 4 runs.
 */
let dir: string
let root: string
beforeAll(async () => {
  dir = await makeTempDir('lcb-close-')
  root = await buildNestedCatalog(join(dir, 'catalog'))
})
afterAll(async () => removeDir(dir))

test('closing a client while its listings, describes and page reads run: every call answers or is refused in words, nothing crashes', async () => {
  const script = await bundleScript(join(__dirname, '../fixtures/close-under-calls.ts'))
  const child = spawn(process.execPath, [script, root, '150'], {
    env: { ...process.env, GLIBC_TUNABLES: 'glibc.malloc.perturb=165' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])))
  expect({ code, signal, output }).toMatchObject({ code: 0, signal: null })
  const counts = /close-under-calls: 150 rounds, (\d+) answered, (\d+) refused/.exec(output)
  expect(counts, output).not.toBeNull()
  // Calls started before the close answered; those that reached the client after it were refused as closed.
  expect(Number(counts![1])).toBeGreaterThan(0)
  expect(Number(counts![2])).toBeGreaterThan(0)
})
