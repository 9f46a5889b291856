/**
 * Azurite's blob service as `azurite/dist/src/blob/main.js` starts it, with one change: its garbage collector of
 * unreferenced extents waits a day between passes instead of 10 minutes. A pass walks every blob and block without
 * yielding to requests; in a long test (the 200-round create race: thousands of objects) it held every request
 * for over 30 s, so a racer's name claim timed out. Nothing else about the emulator differs.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS entry point that patches the module Azurite reads
require('azurite/dist/src/blob/utils/constants').DEFAULT_GC_INTERVAL_MS = 24 * 60 * 60 * 1000
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('azurite/dist/src/blob/main.js')
