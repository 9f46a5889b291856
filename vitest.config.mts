import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'

const require = createRequire(import.meta.url)

/**
 * Long poles first. Without a results cache (a fresh clone, CI) vitest starts the largest files first, and a file
 * that runs for a minute but is short on disk (objstore-contract, contract-suite-az: ~13 s each, both among the last
 * five by size) starts last and decides the tail while the other lane idles. These files, slowest first (one quiet
 * run), go ahead of vitest's own order; everything else keeps it.
 */
const SLOW_FIRST = [
  'tests/core/jobs/flood.test.ts',
  'tests/core/import/isolation.test.ts',
  'tests/core/namespace/dir/crash.test.ts',
  'tests/server/objstore-scaleout.test.ts',
  'tests/core/namespace/dir/claim/name-claims.test.ts',
  'tests/core/import/native.test.ts',
  'tests/core/import/csvWindows.test.ts',
  'tests/core/namespace/dir/server-crash.test.ts',
  'tests/server/create-race.test.ts',
  'tests/core/import/producers.test.ts',
  'tests/core/import/shapes.test.ts',
  'tests/core/import/limits.test.ts',
  'tests/server/objstore-routes.test.ts',
  'tests/server/server-http.test.ts',
  'tests/server/objstore-contract.test.ts',
  'tests/core/namespace/contract-suite-az.test.ts',
]
// A renamed or removed file would silently drop out of the order (and its long pole back to the tail): say so.
const gone = SLOW_FIRST.filter((path) => !existsSync(new URL(path, import.meta.url)))
if (gone.length) throw new Error(`vitest.config.mts: SLOW_FIRST names files that do not exist: ${gone.join(', ')}`)
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification) => SLOW_FIRST.findIndex((path) => spec.moduleId.endsWith(path))
    const sorted = await super.sort(files)
    const slow = sorted.filter((spec) => rank(spec) >= 0).sort((a, b) => rank(a) - rank(b))
    return [...slow, ...sorted.filter((spec) => rank(spec) < 0)]
  }
}

export default defineConfig({
  // Use the same CJS copy of apache-arrow that @lancedb/lancedb requires, so instanceof holds.
  resolve: { alias: [{ find: /^apache-arrow$/, replacement: require.resolve('apache-arrow') }] },
  test: {
    environment: 'node',
    // Two files at a time. Vitest's default is one fewer than the cores (one on a 2-core machine), but most files
    // here wait on child processes, servers on loopback and lease timers more than they compute, so a second lane
    // uses the idle core. The files share nothing: each makes its own temp folders, ports and processes.
    maxWorkers: 2,
    sequence: { sequencer: SlowFirstSequencer },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      // Most files share a worker's module cache (isolate: false): importing lancedb, arrow and core again for each
      // of 115 files cost 88 s of a quiet run. They can: each file makes its own temp folders, ports and processes,
      // and the two that set environment variables put them back after each test.
      {
        extends: true,
        test: { name: 'shared', include: ['tests/{core,server,scripts,mcp}/**/*.test.ts', 'tests/renderer/**/*.test.ts'], isolate: false },
      },
      // Main's tests replace the electron module (vi.mock), which must not leak into another file.
      { extends: true, test: { name: 'main', include: ['tests/main/**/*.test.ts'], isolate: true } },
    ],
  },
})
