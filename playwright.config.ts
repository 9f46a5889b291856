import { defineConfig } from '@playwright/test'

/** Debian's Chromium by default; CHROMIUM_PATH overrides it on other machines. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export default defineConfig({
  testDir: 'tests',
  // The browser UI against the harness, and the desktop app: on the rig (the real main bundle with an electron
  // stand-in, tests/desktop) and on real Electron where a binary exists (tests/electron).
  projects: [
    { name: 'e2e', testMatch: ['e2e/**/*.spec.ts'] },
    { name: 'desktop', testMatch: ['desktop/**/*.spec.ts', 'electron/**/*.spec.ts'] },
  ],
  // One at a time: with two workers a quiet fresh-clone run saw a desktop flow's seed catalog written to while it was
  // copied (ENOTEMPTY in the flow's setup; see the session 20 closing note), and the gain was small (62 against 53
  // tests in the first 3 minutes). Back to two once each worker's seed is proven its own.
  workers: 1,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results/artifacts',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
})
