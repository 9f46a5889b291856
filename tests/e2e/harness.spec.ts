import { spawn } from 'node:child_process'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { expect, test } from '../helpers/e2e'

/** A raw request, so the test can send any Host header (fetch forbids setting it). */
function raw(url: string, options: { host?: string; token?: string; body?: unknown }): Promise<{ status: number; type: string; body: Buffer }> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          host: options.host ?? target.host,
          'content-type': 'application/json',
          ...(options.token !== undefined ? { 'x-harness-token': options.token } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body: Buffer.concat(chunks) }))
      },
    )
    req.on('error', reject)
    req.end(JSON.stringify(options.body ?? {}))
  })
}

test('the harness API needs the per-run token and one of its own host names', async ({ harness }) => {
  const api = `${harness.origin}/api/app/info`
  expect((await raw(api, {})).status).toBe(401)
  expect((await raw(api, { token: 'wrong' })).status).toBe(401)
  const refused = await raw(api, { token: harness.token, host: `evil.example:${harness.port}` })
  expect(refused.status).toBe(403)
  const ok = await raw(api, { token: harness.token, host: `localhost:${harness.port}` })
  expect(ok.status).toBe(200)
  const info = JSON.parse(ok.body.toString()) as { ok: boolean; value: { host: string; initialConnection: { id: string } } }
  expect(info.ok).toBe(true)
  expect(info.value.host).toBe('harness')
  // The token travels in the URL fragment, which browsers never send to the server.
  expect(harness.url).toBe(`${harness.origin}/#token=${harness.token}`)
})

test('pages travel as Arrow IPC bytes; errors and bad input as the Result envelope', async ({ harness }) => {
  const info = JSON.parse((await raw(`${harness.origin}/api/app/info`, { token: harness.token })).body.toString()) as {
    value: { initialConnection: { id: string } }
  }
  const connectionId = info.value.initialConnection.id
  const page = await raw(`${harness.origin}/api/tables/page`, {
    token: harness.token,
    body: { connectionId, namespace: ['demo', 'images', '2024'], name: 'photos', offset: 99_990, limit: 10 },
  })
  expect(page.type).toBe('application/vnd.apache.arrow.stream')
  const table = tableFromIPC(new Uint8Array(page.body))
  expect(table.numRows).toBe(10)
  expect(table.getChild('id')?.get(9)).toBe(99_999n)

  const bad = await raw(`${harness.origin}/api/tables/page`, { token: harness.token, body: { connectionId, namespace: ['..'], name: 'x', offset: -1, limit: 1 } })
  const envelope = JSON.parse(bad.body.toString()) as { ok: boolean; error: { code: string; message: string } }
  expect(envelope.ok).toBe(false)
  expect(envelope.error.code).toBe('invalid_input')
  expect(envelope.error.message).toMatch(/namespace\.0/)
  expect(envelope.error.message).toMatch(/offset/)

  const unknown = await raw(`${harness.origin}/api/tables/explode`, { token: harness.token })
  expect(unknown.status).toBe(404)
  expect(JSON.parse(unknown.body.toString())).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
})

test('`npm run harness` prints one line with the URL to open, and serves the app there', async ({ demoRoot, page }) => {
  const cli = spawn(process.execPath, ['--import', 'tsx', join(__dirname, '../../src/harness/cli.ts'), '--root', demoRoot, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = ''
      cli.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const line = out.split('\n').find((l) => l.startsWith('harness: '))
        if (line) resolve(line.slice('harness: '.length).trim())
      })
      cli.on('exit', (code) => reject(new Error(`harness exited with ${code}: ${out}`)))
    })
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{20,}$/)
    await page.goto(url)
    await expect(page.getByRole('treeitem', { name: 'demo-catalog', exact: true })).toBeVisible()
  } finally {
    cli.kill('SIGTERM')
  }
})

test('every contract method is reachable, including names with more than two parts', async ({ harness }) => {
  const saved = await raw(`${harness.origin}/api/connections/saved/list`, { token: harness.token })
  expect(saved.status).toBe(200)
  expect((JSON.parse(saved.body.toString()) as { error?: { message: string } }).error?.message ?? '').not.toMatch(/Unknown method/)
})
