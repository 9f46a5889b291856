import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { ensureRendererBuilt, rendererDirOf } from './build'
import { startHarness } from './server'

/**
 * `npm run harness -- --root <dir> [--port <n>] [--out-dir <dir>]`: builds the app into the out dir (default
 * `out/`) when its renderer is missing, then prints one line `harness: <url>` on stdout.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { root: { type: 'string' }, port: { type: 'string' }, 'out-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  })
  if (values.help) {
    console.log('usage: npm run harness -- --root <dir> [--port <n>] [--out-dir <dir>]   (port 0 or absent: random; out dir default: out/, built when missing)')
    return
  }
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a number from 0 to 65535, got "${values.port}"`)

  const outDir = values['out-dir'] ?? resolve(__dirname, '../../out')
  await ensureRendererBuilt(outDir)
  const harness = await startHarness({ root: values.root, port, rendererDir: rendererDirOf(outDir) })
  const info = await harness.service.dispatch('app/info', {})
  if (info.ok && (info.value as { initialError?: { message: string } }).initialError) {
    console.error(`warning: could not open ${values.root}: ${(info.value as { initialError: { message: string } }).initialError.message}`)
  }
  console.log(`harness: ${harness.url}`)

  const stop = () => {
    void harness.close().finally(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(`harness failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
