import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { storageOptionsFromFlags } from '../contract/objectStore'
import { ensureRendererBuilt, rendererDirOf } from './build'
import { startHarness } from './server'
import { ensureLanceThreads } from '../core'

// Before any table operation: Lance sizes its CPU pool once (see lanceThreads.ts).
ensureLanceThreads()

const USAGE =
  'usage: npm run harness -- --root <dir or uri> [--storage-option key=value]… [--port <n>] [--out-dir <dir>] [--cache-dir <dir>]\n' +
  '  --root             a directory, file:///path, az://container/prefix, s3://bucket/prefix or gs://bucket/prefix\n' +
  '  --storage-option   one Lance storage option for an object-store root (repeatable), e.g. azure_storage_account_name=acct\n' +
  '  --port             0 or absent: random\n' +
  '  --out-dir          default out/, built when missing\n' +
  '  --cache-dir        keep results per table version (column profiles) in this folder across runs; memory only when absent'

/**
 * `npm run harness -- --root <dir or uri> [--storage-option key=value]… [--port <n>] [--out-dir <dir>] [--cache-dir <dir>]`: builds the
 * app into the out dir (default `out/`) when its renderer is missing, then prints one line `harness: <url>` on stdout.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      root: { type: 'string' },
      'storage-option': { type: 'string', multiple: true },
      port: { type: 'string' },
      'out-dir': { type: 'string' },
      'cache-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const port = values.port === undefined ? 0 : Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a number from 0 to 65535, got "${values.port}"`)
  const storageOptions = storageOptionsFromFlags(values['storage-option'] ?? [])
  if (Object.keys(storageOptions).length > 0 && values.root === undefined) throw new Error('--storage-option needs --root <uri>')

  const outDir = values['out-dir'] ?? resolve(__dirname, '../../out')
  await ensureRendererBuilt(outDir)
  const harness = await startHarness({ root: values.root, storageOptions, port, rendererDir: rendererDirOf(outDir), cacheDir: values['cache-dir'] === undefined ? undefined : resolve(values['cache-dir']) })
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
