import { createRequire } from 'node:module'
import { defineConfig } from 'vitest/config'

const require = createRequire(import.meta.url)

export default defineConfig({
  // Use the same CJS copy of apache-arrow that @lancedb/lancedb requires, so instanceof holds.
  resolve: { alias: [{ find: /^apache-arrow$/, replacement: require.resolve('apache-arrow') }] },
  test: {
    include: ['tests/{core,server,main,scripts}/**/*.test.ts', 'tests/renderer/**/*.test.ts'],
    environment: 'node',
    // Two files at a time. Vitest's default is one fewer than the cores (one on a 2-core machine), but most files
    // here wait on child processes, servers on loopback and lease timers more than they compute, so a second lane
    // uses the idle core. The files share nothing: each makes its own temp folders, ports and processes.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
