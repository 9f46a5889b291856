import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { NO_CLOUD_ENV } from '../helpers/azurite'
import { sharedKeyRequest } from '../helpers/azurite-blobs'
import { KEY } from './support'
import { bundleScript, serverCli } from '../helpers/bundle'

export const REPO = join(__dirname, '../..')

/**
 * An environment for a child process that holds no storage credentials of its own (and cannot fall back to a real
 * cloud): only PATH and HOME from ours, plus {@link NO_CLOUD_ENV}.
 */
export function credentialFreeEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...NO_CLOUD_ENV }
}

/** Run a TypeScript script (bundled once, ../helpers/bundle.ts) in its own process; resolves with its stdout once it exits 0. */
export async function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const bundled = await bundleScript(join(REPO, script))
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundled, ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}: ${err}`))))
  })
}

export interface StoreServer {
  url: string
  child: ChildProcessWithoutNullStreams
  /** Everything the process printed so far (stdout and stderr). */
  output(): string
  /** SIGTERM, then wait for the exit code. */
  stop(): Promise<number | null>
  /** SIGKILL (no cleanup at all), then wait for the exit. */
  kill(): Promise<void>
}

/**
 * `npm run serve` (src/server/cli.ts, bundled once: tests/helpers/bundle.ts) in its own process on an object-store root; the credentials arrive only
 * as `--storage-option` flags, its environment has none. Resolves at the "listening on" line.
 */
export async function spawnStoreServer(root: string, storageOptions: Record<string, string>, extra: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<StoreServer> {
  const flags = Object.entries(storageOptions).flatMap(([k, v]) => ['--storage-option', `${k}=${v}`])
  const child = spawn(process.execPath, [await serverCli(), '--root', root, '--port', '0', '--api-key', KEY, ...flags, ...extra], {
    cwd: REPO,
    env: { ...credentialFreeEnv(), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let log = ''
  child.stderr.on('data', (d: Buffer) => (log += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      log += d.toString()
      const m = /listening on (\S+)/.exec(log)
      if (m) resolve(m[1]!)
    })
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${log}`)))
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return {
    url,
    child,
    output: () => log,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return exited
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

/**
 * Delete every blob under `prefix` in an Azurite container (to make a table whose data is gone, as a writer killed
 * between lancedb's declare and its first commit leaves it). Shared Key signed (tests/helpers/azurite-blobs.ts).
 */
export async function deleteBlobs(endpoint: string, container: string, prefix: string): Promise<number> {
  const list = await sharedKeyRequest(endpoint, 'GET', `/${container}`, { comp: 'list', prefix, restype: 'container' })
  const names = [...(await list.text()).matchAll(/<Name>([^<]+)<\/Name>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))
  for (const name of names) {
    const response = await sharedKeyRequest(endpoint, 'DELETE', `/${container}/${name.split('/').map(encodeURIComponent).join('/')}`, {})
    if (response.status !== 202) throw new Error(`azurite: deleting ${name} answered ${response.status}`)
  }
  return names.length
}
