/**
 * The harness's download route for exports over real loopback HTTP: `GET /api/exports/<jobId>` streams a
 * finished download export once (then deletes it), and refuses a request without the token.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ConnectionInfo, ExportJobInfo, Result } from '../../src/contract'
import { startHarness, type Harness } from '../../src/harness/server'
import { buildCatalog, makeTempDir, removeDir } from '../helpers/catalog'

let dir: string
let harness: Harness

beforeEach(async () => {
  dir = await makeTempDir('lcb-harness-export-')
  await buildCatalog(join(dir, 'catalog'), { namespaces: [['lab']], tables: [{ namespace: ['lab'], name: 'rows', rows: 3, sample: { start: 9_007_199_254_740_993n } }] })
  harness = await startHarness({ root: join(dir, 'catalog') })
})

afterEach(async () => {
  await harness.close()
  await removeDir(dir)
})

async function api<T>(method: string, input: unknown): Promise<T> {
  const response = await fetch(`${harness.origin}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-harness-token': harness.token },
    body: JSON.stringify(input),
  })
  const result = (await response.json()) as Result<T>
  if (!result.ok) throw new Error(result.error.message)
  return result.value
}

describe('GET /api/exports/<jobId>', () => {
  it('streams a finished download export once, as an attachment, then deletes it', async () => {
    const [connection] = await api<ConnectionInfo[]>('connections/list', {})
    const job = await api<ExportJobInfo>('export/start', { connectionId: connection!.id, namespace: ['lab'], name: 'rows', view: { columns: ['id', 'label'] }, format: 'csv' })
    expect(job.download).toBe(true)
    expect(job.fileName).toBe('rows.csv')
    // Not finished yet, or finished: poll the job list until it is done.
    await expect.poll(async () => (await api<ExportJobInfo[]>('jobs/list', {})).find((j) => j.id === job.id)?.state).toBe('done')

    expect((await fetch(`${harness.origin}/api/exports/${job.id}`)).status).toBe(401)
    const response = await fetch(`${harness.origin}/api/exports/${job.id}?token=${encodeURIComponent(harness.token)}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toContain('filename="rows.csv"')
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/)
    expect(await response.text()).toBe('id,label\n9007199254740993,row-0\n9007199254740994,row-1\n9007199254740995,row-2\n')
    // Once: the file is gone.
    await expect.poll(async () => (await fetch(`${harness.origin}/api/exports/${job.id}?token=${encodeURIComponent(harness.token)}`)).status).toBe(404)
    expect((await fetch(`${harness.origin}/api/exports/not-an-id?token=${encodeURIComponent(harness.token)}`)).status).toBe(400)
  })

  it('refuses to export to a path that is not in a folder, in words, before a job exists, and writes no file', async () => {
    const [connection] = await api<ConnectionInfo[]>('connections/list', {})
    const before = (await api<ExportJobInfo[]>('jobs/list', {})).length
    await expect(api<ExportJobInfo>('export/start', { connectionId: connection!.id, namespace: ['lab'], name: 'rows', view: {}, format: 'parquet', path: join(dir, 'missing', 'rows.parquet') })).rejects.toThrow(
      `Cannot write into ${join(dir, 'missing')}: the folder does not exist`,
    )
    expect((await api<ExportJobInfo[]>('jobs/list', {})).length).toBe(before)
    expect(await readdir(dir)).toEqual(['catalog'])
  })
})
