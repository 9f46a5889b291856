import { createRequire } from 'node:module'
import { defineConfig } from 'vitest/config'

const require = createRequire(import.meta.url)

export default defineConfig({
  // Use the same CJS copy of apache-arrow that @lancedb/lancedb requires, so instanceof holds.
  resolve: { alias: [{ find: /^apache-arrow$/, replacement: require.resolve('apache-arrow') }] },
  test: {
    include: ['tests/{core,server,main,scripts}/**/*.test.ts', 'tests/renderer/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
})
