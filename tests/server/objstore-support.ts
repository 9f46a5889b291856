import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { NO_CLOUD_ENV } from '../helpers/azurite'

export const REPO = join(__dirname, '../..')

/**
 * An environment for a child process that holds no storage credentials of its own (and cannot fall back to a real
 * cloud): only PATH and HOME from ours, plus {@link NO_CLOUD_ENV}.
 */
export function credentialFreeEnv(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...NO_CLOUD_ENV }
}

/** Run a TypeScript script (tsx) in its own process; resolves with its stdout once it exits 0. */
export function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.once('error', reject)
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}: ${err}`))))
  })
}
