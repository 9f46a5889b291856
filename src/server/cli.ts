import { parseArgs } from 'node:util'
import { isSecretStorageKey, objectStoreScheme, objectStoreUriProblem, parseStorageOption, type StorageOptions } from '../contract/objectStore'
import { startServer } from './index'
import { ensureLanceThreads } from '../core'

// Before any table operation: Lance sizes its CPU pool once (see lanceThreads.ts).
ensureLanceThreads()

const usage = `Usage: npm run serve -- --root <dir|uri> [--port <n>] [--host <addr>] --api-key <key> [--api-key <key2>]
       [--database <name>=<dir|uri> ...] [--storage-option <key>=<value> ...] [--vend-storage-options]
       [--max-body-mb <n>] [--log]
A catalog is a local directory, file:///path, s3://bucket/prefix, gs://bucket/prefix or az://container/prefix.
--storage-option   Lance's object-store options (aws_region, aws_endpoint, azure_storage_account_name, …), for every
                   object-store catalog served; the cloud's own environment variables (AWS_*, AZURE_STORAGE_*,
                   GOOGLE_*) work too.
--vend-storage-options
                   hand the --storage-option values (secrets included) to clients in describe/declare
                   (storage_options), so lancedb clients on other machines can read and write the data.
Keys may also come from CATALOG_API_KEY (comma-separated for several).`

/** `npm run serve`: serve directory catalogs over the Lance REST namespace contract. */
async function main(): Promise<void> {
  let args
  try {
    args = parseArgs({
      options: {
        root: { type: 'string' },
        port: { type: 'string', default: '2333' },
        host: { type: 'string', default: '127.0.0.1' },
        'api-key': { type: 'string', multiple: true },
        database: { type: 'string', multiple: true },
        'storage-option': { type: 'string', multiple: true },
        'vend-storage-options': { type: 'boolean', default: false },
        'max-body-mb': { type: 'string' },
        log: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values
  } catch (error) {
    fail(`${(error as Error).message}\n${usage}`)
  }
  if (args.help) {
    console.log(usage)
    return
  }
  const apiKeys = [...(args['api-key'] ?? []), ...(process.env.CATALOG_API_KEY ?? '').split(',')]
    .flatMap((k) => k.split(','))
    .map((k) => k.trim())
    .filter(Boolean)
  if (apiKeys.length === 0) fail(`No API key: pass --api-key <key> or set CATALOG_API_KEY.\n${usage}`)
  const databases: Record<string, string> = {}
  for (const entry of args.database ?? []) {
    const i = entry.indexOf('=')
    if (i <= 0 || i === entry.length - 1) fail(`--database wants <name>=<dir|uri>, got "${entry}"`)
    databases[entry.slice(0, i)] = entry.slice(i + 1)
  }
  for (const location of [args.root, ...Object.values(databases)]) {
    const problem = location && objectStoreScheme(location) ? objectStoreUriProblem(location) : null
    if (problem) fail(`${location} ${problem}`)
  }
  const storageOptions: StorageOptions = {}
  for (const entry of args['storage-option'] ?? []) {
    try {
      const [key, value] = parseStorageOption(entry)
      storageOptions[key] = value
    } catch (error) {
      fail((error as Error).message)
    }
  }
  // Messages from the store may quote what they were given: never print a secret.
  const secrets = Object.entries(storageOptions)
    .filter(([key, value]) => isSecretStorageKey(key) && value.length >= 4)
    .map(([, value]) => value)
  const scrub = (text: string) => secrets.reduce((t, secret) => t.split(secret).join('•••'), text)
  if (!args.root && Object.keys(databases).length === 0) fail(`Nothing to serve: give --root <dir> or --database <name>=<dir>.\n${usage}`)
  const port = Number(args.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0-65535, got "${args.port}"`)
  const maxBodyMb = args['max-body-mb'] === undefined ? undefined : Number(args['max-body-mb'])
  if (maxBodyMb !== undefined && !(maxBodyMb > 0)) fail('--max-body-mb must be a positive number')

  const server = await startServer({
    root: args.root,
    databases,
    storageOptions,
    vendStorageOptions: args['vend-storage-options'],
    apiKeys,
    host: args.host,
    port,
    bodyLimit: maxBodyMb ? Math.floor(maxBodyMb * 1024 * 1024) : undefined,
    log: args.log ? (line) => console.error(line) : undefined,
  }).catch((error: unknown) => fail(scrub(`Could not start: ${error instanceof Error ? error.message : String(error)}`)))
  console.log(`listening on ${server.url}`)

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    console.error(`${signal}: finishing in-flight requests…`)
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`shutdown failed: ${String(error)}`)
        process.exit(1)
      },
    )
  }
  process.on('SIGINT', () => stop('SIGINT'))
  process.on('SIGTERM', () => stop('SIGTERM'))
}

function fail(message: string): never {
  console.error(message)
  process.exit(2)
}

void main()
