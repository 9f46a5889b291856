import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import { KEY } from '../support'
import { serverCli } from '../../helpers/bundle'

export interface ServerProcess {
  url: string
  child: ChildProcessWithoutNullStreams
  /** SIGTERM, then wait for the exit code. */
  stop(): Promise<number | null>
}

/** `npm run serve` as its own process (src/server/cli.ts, bundled once: tests/helpers/bundle.ts) on `root`; resolves at its "listening on" line. */
export async function spawnServer(root: string): Promise<ServerProcess> {
  const child = spawn(process.execPath, [await serverCli(), '--root', root, '--port', '0', '--api-key', KEY], {
    cwd: join(__dirname, '../../..'),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /listening on (\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)))
  })
  return {
    url,
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode)
        child.once('exit', (code) => resolve(code))
        child.kill('SIGTERM')
      }),
  }
}
