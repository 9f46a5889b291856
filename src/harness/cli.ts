import { parseArgs } from 'node:util'
import { startHarness } from './server'

/** `npm run harness -- --root <dir> [--port <n>]`: prints one line `harness: <url>`. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { root: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    strict: true,
  })
  if (values.help) {
    console.log('usage: npm run harness -- --root <dir> [--port <n>]   (port 0 or absent: random)')
    return
  }
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a number from 0 to 65535, got "${values.port}"`)

  const harness = await startHarness({ root: values.root, port })
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
