import { spawn, type ChildProcess } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { createInterface } from 'node:readline'

/**
 * Microsoft's Azure Storage emulator (the `azurite` dev dependency, pinned 3.35.0 for Node 20), started on
 * loopback for a test: blob service only, in memory, telemetry off. Lance reaches it as `az://<container>/<prefix>`
 * with {@link Azurite.storageOptions}.
 */
export const AZURITE_ACCOUNT = 'devstoreaccount1'
/** The emulator's published well-known key (not a secret). */
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='

export interface Azurite {
  port: number
  endpoint: string
  /** Storage options Lance needs for this emulator (also valid as `--storage-option key=value`). */
  storageOptions: Record<string, string>
  /** Make a container (idempotent). */
  createContainer(name: string): Promise<void>
  /** A fresh container with a random name, returned as `az://<container>/<prefix>`. */
  freshRoot(prefix?: string): Promise<string>
  stop(): Promise<void>
}

/**
 * Environment that makes any fallback to a real cloud impossible for a child process (or this one): Lance's
 * S3 path looks up a bucket's region from AWS when options are missing; with these it fails fast on loopback.
 */
export const NO_CLOUD_ENV: Record<string, string> = {
  AWS_ENDPOINT: 'http://127.0.0.1:9',
  AWS_ALLOW_HTTP: 'true',
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'none',
  AWS_SECRET_ACCESS_KEY: 'none',
  AWS_EC2_METADATA_DISABLED: 'true',
  GOOGLE_SERVICE_ACCOUNT: '',
}

export async function startAzurite(): Promise<Azurite> {
  // Azurite's own entry point, its garbage collector's passes a day apart (see azurite-main.cjs).
  const main = require.resolve('./azurite-main.cjs')
  // AZURITE_DEBUG_LOG=<file> keeps Azurite's own debug log (every request, and its garbage collector's passes).
  const debug = process.env.AZURITE_DEBUG_LOG ? ['--debug', process.env.AZURITE_DEBUG_LOG] : []
  const child = spawn(process.execPath, [main, '--blobHost', '127.0.0.1', '--blobPort', '0', '--inMemoryPersistence', '--disableTelemetry', ...debug], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // AZURITE_DB would switch it to SQL metadata storage, which refuses --inMemoryPersistence.
    env: withoutKey(process.env, 'AZURITE_DB'),
  })
  const port = await listeningPort(child)
  const endpoint = `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`
  const storageOptions = {
    azure_storage_account_name: AZURITE_ACCOUNT,
    azure_storage_account_key: AZURITE_KEY,
    azure_endpoint: endpoint,
    allow_http: 'true',
  }
  let containers = 0
  const createContainer = async (name: string): Promise<void> => {
    const response = await signedRequest(endpoint, 'PUT', `/${name}`, { restype: 'container' })
    if (response.status !== 201 && response.status !== 409) throw new Error(`azurite: creating container ${name} answered ${response.status}: ${await response.text()}`)
  }
  return {
    port,
    endpoint,
    storageOptions,
    createContainer,
    async freshRoot(prefix = 'catalog') {
      const name = `c${process.pid}x${++containers}x${Math.random().toString(36).slice(2, 8)}`
      await createContainer(name)
      return `az://${name}/${prefix}`
    },
    stop: () => stopChild(child),
  }
}

function withoutKey(env: NodeJS.ProcessEnv, key: string): NodeJS.ProcessEnv {
  const copy = { ...env }
  delete copy[key]
  return copy
}

function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let log = ''
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      log += line + '\n'
      const match = /listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(line)
      if (match) resolve(Number(match[1]))
    })
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()))
    child.once('exit', (code) => reject(new Error(`azurite exited (${code}) before listening:\n${log}`)))
    child.once('error', reject)
  })
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
  })
}

/** One request signed with the account key (Shared Key, path-style URLs as the emulator uses). */
async function signedRequest(endpoint: string, method: string, path: string, query: Record<string, string>): Promise<Response> {
  const date = new Date().toUTCString()
  const version = '2021-12-02'
  const canonicalHeaders = `x-ms-date:${date}\nx-ms-version:${version}\n`
  const canonicalQuery = Object.keys(query)
    .sort()
    .map((k) => `\n${k}:${query[k]}`)
    .join('')
  const resource = `/${AZURITE_ACCOUNT}/${AZURITE_ACCOUNT}${path}${canonicalQuery}`
  const toSign = [method, '', '', '', '', '', '', '', '', '', '', '', canonicalHeaders + resource].join('\n')
  const signature = createHmac('sha256', Buffer.from(AZURITE_KEY, 'base64')).update(toSign, 'utf8').digest('base64')
  const url = `${endpoint}${path}?${new URLSearchParams(query)}`
  return fetch(url, { method, headers: { 'x-ms-date': date, 'x-ms-version': version, Authorization: `SharedKey ${AZURITE_ACCOUNT}:${signature}` } })
}
