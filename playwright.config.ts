import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

/**
 * Debian's old headless shell (`chromium-headless-shell`, the build Playwright itself uses for headless runs) when it
 * is installed, else Debian's Chromium; CHROMIUM_PATH overrides both on other machines. The shell has no browser UI
 * to draw: the same E2E files took about a fifth less CPU in it here (docs/reliability.md, "Test time").
 */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell'
export const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium')

export default defineConfig({
  testDir: 'tests',
  // The browser UI against the harness, and the desktop app: on the rig (the real main bundle with an electron
  // stand-in, tests/desktop) and on real Electron where a binary exists (tests/electron). The desktop flows go first:
  // they run one after another, and last they left a third of the machine idle for a minute; first, the other
  // worker fills it with e2e files (docs/reliability.md, "Test time").
  projects: [
    { name: 'desktop', testMatch: ['desktop/**/*.spec.ts', 'electron/**/*.spec.ts'] },
    { name: 'e2e', testMatch: ['e2e/**/*.spec.ts'] },
  ],
  // Two at a time: one worker left a core a third idle (tests wait on servers, processes and the page). Each worker
  // builds its own demo and seed catalogs. (A desktop flow failed once with two: a window closed during an import
  // left the app running — polars' pipe, fixed in src/core/import/native/polars.ts — and the test's teardown then
  // raced its next step, which looked like two writers on one seed.)
  workers: 2,
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
