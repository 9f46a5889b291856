/**
 * The harness's import routes over real loopback HTTP: `POST /api/upload` streams a body into a
 * staged upload, `GET /api/events` carries `jobs/progress` as Server-Sent Events. Both refuse a
 * request without the token.
 */
import { join } from 'node:path'
import { Table, tableToIPC, vectorFromArray } from 'apache-arrow'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ImportJobInfo, Result } from '../../src/contract'
import { startHarness, type Harness } from '../../src/harness/server'
import { buildCatalog, makeTempDir, removeDir } from '../helpers/catalog'

let dir: string
let harness: Harness

beforeEach(async () => {
  dir = await makeTempDir('lcb-harness-import-')
  await buildCatalog(join(dir, 'catalog'), { namespaces: [['lab']] })
  harness = await startHarness({ root: join(dir, 'catalog') })
})

afterEach(async () => {
  await harness.close()
  await removeDir(dir)
})

function upload(body: Uint8Array, headers: Record<string, string>): Promise<Response> {
  return fetch(`${harness.origin}/api/upload`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', ...headers },
    body,
  })
}

async function api<T>(method: string, input: unknown): Promise<Result<T>> {
  const response = await fetch(`${harness.origin}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-harness-token': harness.token },
    body: JSON.stringify(input),
  })
  return (await response.json()) as Result<T>
}

/** Read Server-Sent Events until `until` accepts one; returns every `jobs/progress` payload seen. */
async function readEvents(response: Response, until: (job: ImportJobInfo) => boolean): Promise<ImportJobInfo[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const seen: ImportJobInfo[] = []
  let buffer = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error('the event stream ended early')
    buffer += value
    let end: number
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const message = buffer.slice(0, end)
      buffer = buffer.slice(end + 2)
      const event = /^event: (.*)$/m.exec(message)?.[1]
      const data = /^data: (.*)$/m.exec(message)?.[1]
      if (event === 'jobs/progress' && data) {
        const job = JSON.parse(data) as ImportJobInfo
        seen.push(job)
        if (until(job)) {
          await reader.cancel()
          return seen
        }
      }
    }
  }
}

const rows = new Table({ id: vectorFromArray(Int32Array.from({ length: 500 }, (_, i) => i)) })

describe('harness import routes', () => {
  it('refuses an upload or an event stream without the token', async () => {
    const noToken = await upload(new Uint8Array([1, 2, 3]), { 'x-file-name': 'a.arrow' })
    expect(noToken.status).toBe(401)
    const wrong = await fetch(`${harness.origin}/api/events?token=nope`)
    expect(wrong.status).toBe(401)
  })

  it('stages an upload, imports it and reports progress over Server-Sent Events', async () => {
    const events = await fetch(`${harness.origin}/api/events?token=${encodeURIComponent(harness.token)}`)
    expect(events.status).toBe(200)
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/)

    const bytes = tableToIPC(rows, 'stream')
    const staged = (await (await upload(bytes, { 'x-harness-token': harness.token, 'x-file-name': encodeURIComponent('my rows.arrows') })).json()) as Result<{
      uploadId: string
      fileName: string
      bytes: number
    }>
    expect(staged).toMatchObject({ ok: true, value: { fileName: 'my rows.arrows', bytes: bytes.byteLength } })
    if (!staged.ok) return
    const source = { uploadId: staged.value.uploadId }
    const connections = await api<{ id: string }[]>('connections/list', {})
    const connectionId = connections.ok ? connections.value[0]!.id : ''

    const preview = await api<{ suggestedName: string; format: string }>('import/preview', { connectionId, namespace: ['lab'], source })
    expect(preview).toMatchObject({ ok: true, value: { suggestedName: 'my_rows', format: 'arrow-stream' } })

    const started = await api<ImportJobInfo>('import/start', { connectionId, namespace: ['lab'], source, name: 'my_rows' })
    expect(started.ok).toBe(true)
    if (!started.ok) return
    const seen = await readEvents(events, (job) => job.id === started.value.id && job.state !== 'queued' && job.state !== 'running')
    const last = seen[seen.length - 1]!
    expect(last).toMatchObject({ state: 'done', result: { rowCount: 500 }, target: { namespace: ['lab'], name: 'my_rows' } })

    // The upload was consumed by its job.
    const again = await api('import/preview', { connectionId, namespace: ['lab'], source })
    expect(again).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })
})
