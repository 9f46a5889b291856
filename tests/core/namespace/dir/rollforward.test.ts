import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, rename, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { connectNamespace as lanceConnect } from '@lancedb/lancedb'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ConnectionInfo, ImportJobInfo, Result } from '../../../../src/contract'
import { DirNamespaceClient } from '../../../../src/core/namespace/dir'
import { CatalogManifest } from '../../../../src/core/namespace/dir/manifest'
import { JOURNAL_DIR, type Intent } from '../../../../src/core/namespace/dir/journal'
import { stagingName } from '../../../../src/core/namespace/dir/staging'
import { CatalogService, MemoryRecentsStore } from '../../../../src/core/service'
import { MemoryReadOnlyStore } from '../../../../src/core/connections/readOnly'
import { diffSnapshots, makeTempDir, removeDir, sampleTable, snapshotTree } from '../../../helpers/catalog'

/**
 * Each multi-step write stopped between its steps (the state a kill -9 leaves, made on purpose so every step
 * boundary is covered), then the catalog is opened again: the write is finished or undone.
 */
function deadPid(): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', ''])
    child.on('exit', () => resolve(child.pid!))
  })
}

async function journal(root: string, intent: Intent): Promise<void> {
  await mkdir(join(root, JOURNAL_DIR), { recursive: true })
  await writeFile(join(root, JOURNAL_DIR, `1-x.json`), JSON.stringify({ pid: await deadPid(), startedAt: Date.now(), intent }))
}

async function lanceNames(root: string, namespace: string[]): Promise<string[]> {
  const db = await lanceConnect('dir', { root })
  try {
    return await db.tableNames(namespace)
  } finally {
    db.close()
  }
}

describe('recovery when a catalog is opened', () => {
  let root: string
  let client: DirNamespaceClient

  beforeEach(async () => {
    root = join(await makeTempDir(), 'catalog')
    client = await DirNamespaceClient.open(root, { create: true })
    await client.createNamespace(['ns'])
  })
  afterEach(async () => {
    await client.close()
    await removeDir(join(root, '..'))
  })

  async function reopen(): Promise<string[]> {
    await client.close()
    client = await DirNamespaceClient.open(root)
    expect(existsSync(join(root, JOURNAL_DIR))).toBe(false)
    expect((await readdir(root)).filter((n) => n.startsWith('.lcb-'))).toEqual([])
    return client.recovered
  }

  it('finishes a root → namespace move stopped after the directory moved', async () => {
    await client.createTable({ namespace: [], name: 'a' }, sampleTable(3))
    const toDir = 'deadbeef_ns$v'
    await journal(root, { op: 'move', from: { namespace: [], name: 'a' }, to: { namespace: ['ns'], name: 'v' }, fromDir: 'a.lance', toDir })
    await rename(join(root, 'a.lance'), join(root, toDir))
    expect(await reopen()).toEqual(['Finished moving table a to ns/v'])
    expect(await lanceNames(root, [])).toEqual([])
    expect((await client.describeTable({ namespace: ['ns'], name: 'v' })).rowCount).toBe(3)
  })

  it('finishes a namespace → root move stopped after the manifest row moved', async () => {
    await client.createTable({ namespace: ['ns'], name: 't' }, sampleTable(4))
    const manifest = new CatalogManifest(root)
    const fromDir = (await manifest.find('ns$t'))[0]!.location!
    await journal(root, { op: 'move', from: { namespace: ['ns'], name: 't' }, to: { namespace: [], name: 'b' }, fromDir, toDir: 'b.lance' })
    await manifest.moveRow('ns$t', 'b', 'b.lance')
    await manifest.close()
    await reopen()
    expect(await lanceNames(root, [])).toEqual(['b'])
    expect(await lanceNames(root, ['ns'])).toEqual([])
    expect((await client.describeTable({ namespace: [], name: 'b' })).rowCount).toBe(4)
  })

  it('finishes an overwrite swap stopped after the old directory was set aside', async () => {
    await client.createTable({ namespace: [], name: 't' }, sampleTable(2))
    const staging = { namespace: [], name: stagingName('t', await deadPid()) }
    await client.createTable(staging, sampleTable(5))
    const asideDir = `.lcb-replaced-${await deadPid()}-abc-t`
    await journal(root, { op: 'swap', target: { namespace: [], name: 't' }, staging, targetDir: 't.lance', stagingDir: `${staging.name}.lance`, asideDir })
    await rename(join(root, 't.lance'), join(root, asideDir))
    await reopen()
    expect(await lanceNames(root, [])).toEqual(['t'])
    expect((await client.describeTable({ namespace: [], name: 't' })).rowCount).toBe(5)
  })

  it('rolls back an interrupted append, removes dead writers’ staging tables and keeps live ones', async () => {
    await client.createTable({ namespace: ['ns'], name: 'p' }, sampleTable(2))
    await client.appendRows({ namespace: ['ns'], name: 'p' }, sampleTable(3))
    await journal(root, { op: 'append', table: { namespace: ['ns'], name: 'p' }, version: 1 })
    const dead = { namespace: ['ns'], name: stagingName('x', await deadPid()) }
    const live = { namespace: ['ns'], name: stagingName('y') }
    await client.createTable(dead, sampleTable(1))
    await client.createTable(live, sampleTable(1))
    await client.close()
    client = await DirNamespaceClient.open(root)
    expect(client.recovered).toEqual([`Rolled back an interrupted append to table ns/p (version 1 restored)`, `Removed the unfinished staging table ns/${dead.name}`])
    expect((await client.describeTable({ namespace: ['ns'], name: 'p' })).rowCount).toBe(2)
    expect(await lanceNames(root, ['ns'])).toEqual(['p', live.name].sort())
  })

  it('removes a staging table whose process id now belongs to another process, even to this one', async () => {
    // In a container a restarted app often gets the pid its crashed run had: the name alone says "alive".
    const reused = { namespace: [], name: stagingName('z', process.pid) }
    await client.createTable(reused, sampleTable(1))
    const before = (Date.now() - process.uptime() * 1000 - 60_000) / 1000
    await utimes(join(root, `${reused.name}.lance`), before, before)
    await client.close()
    client = await DirNamespaceClient.open(root)
    expect(client.recovered).toEqual([`Removed the unfinished staging table ${reused.name}`])
    expect(await lanceNames(root, [])).toEqual([])
  })

  it('puts what was recovered into the jobs history', async () => {
    await client.createTable({ namespace: [], name: stagingName('gone', await deadPid()) }, sampleTable(1))
    await client.close()
    const service = new CatalogService({ host: 'harness', version: '0.0.0-test', recents: new MemoryRecentsStore() })
    try {
      const opened = (await service.dispatch('connections/openDirectory', { path: root })) as Result<{ id: string }>
      expect(opened.ok).toBe(true)
      const jobs = (await service.dispatch('jobs/list', {})) as Result<ImportJobInfo[]>
      const recovery = jobs.ok ? jobs.value.filter((j) => j.kind === 'recovery' && j.target.connectionId === (opened.ok ? opened.value.id : '')) : []
      expect(recovery).toHaveLength(1)
      expect(recovery[0]).toMatchObject({ state: 'done', finishedAt: expect.any(Number) })
      expect(recovery[0]!.note).toMatch(/Removed the unfinished staging table \.lcb-staging-\d+-\w+-gone/)
    } finally {
      await service.closeAll()
    }
    client = await DirNamespaceClient.open(root)
  })

  it('read-only: opening writes nothing and reports what it found; connections/recover then recovers', async () => {
    await client.createTable({ namespace: ['ns'], name: 'p' }, sampleTable(2))
    await client.appendRows({ namespace: ['ns'], name: 'p' }, sampleTable(3))
    await journal(root, { op: 'append', table: { namespace: ['ns'], name: 'p' }, version: 1 })
    const dead = { namespace: ['ns'], name: stagingName('crashtest', await deadPid()) }
    await client.createTable(dead, sampleTable(1))
    await client.close()
    const readOnly = new MemoryReadOnlyStore()
    await readOnly.setReadOnly(`dir:${root}`, true)
    const service = new CatalogService({ host: 'harness', version: '0.0.0-test', recents: new MemoryRecentsStore(), readOnly })
    try {
      const before = await snapshotTree(root)
      const opened = (await service.dispatch('connections/openDirectory', { path: root })) as Result<ConnectionInfo>
      if (!opened.ok) throw new Error(opened.error.message)
      expect(opened.value.readOnly).toBe(true)
      expect(opened.value.pendingRecovery).toEqual(['an interrupted append to ns/p', 'an interrupted import of ns/crashtest'])
      expect((await service.dispatch('tables/list', { connectionId: opened.value.id, namespace: ['ns'] })) as Result<unknown>).toMatchObject({ ok: true, value: { items: ['p'] } })
      expect(diffSnapshots(before, await snapshotTree(root))).toEqual([])
      expect((await service.dispatch('jobs/list', {})) as Result<ImportJobInfo[]>).toMatchObject({ ok: true, value: [] })

      const recovered = (await service.dispatch('connections/recover', { connectionId: opened.value.id })) as Result<ConnectionInfo>
      expect(recovered).toMatchObject({ ok: true, value: { readOnly: true } })
      expect(recovered.ok && recovered.value.pendingRecovery).toBeUndefined()
      expect(await lanceNames(root, ['ns'])).toEqual(['p'])
      const jobs = (await service.dispatch('jobs/list', {})) as Result<ImportJobInfo[]>
      expect(jobs.ok && jobs.value.map((j) => j.note)).toEqual([expect.stringContaining('Rolled back an interrupted append to table ns/p')])
      // Writes other than the recovery stay refused.
      expect(await service.dispatch('tables/drop', { connectionId: opened.value.id, namespace: ['ns'], name: 'p' })).toMatchObject({ ok: false, error: { code: 'permission_denied' } })
      expect(await service.dispatch('connections/recover', { connectionId: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } })
    } finally {
      await service.closeAll()
    }
    client = await DirNamespaceClient.open(root)
    expect((await client.describeTable({ namespace: ['ns'], name: 'p' })).rowCount).toBe(2)
  })

  it('read-only: a saved file:// catalog opens without recovering, and its Test never recovers', async () => {
    await client.close()
    const service = new CatalogService({ host: 'harness', version: '0.0.0-test', recents: new MemoryRecentsStore() })
    try {
      const call = async <T>(method: string, input: unknown): Promise<T> => {
        const result = (await service.dispatch(method, input)) as Result<T>
        if (!result.ok) throw new Error(result.error.message)
        return result.value
      }
      const { connection, view } = await call<{ connection: ConnectionInfo; view: { id: string } }>('connections/saved/connect', { kind: 'object-store', draft: { name: 'Local', uri: pathToFileURL(root).href } })
      await call('connections/setReadOnly', { connectionId: connection.id, readOnly: true })
      await call('connections/close', { connectionId: connection.id })
      const writer = await DirNamespaceClient.open(root)
      const dead = { namespace: ['ns'], name: stagingName('crashtest', await deadPid()) }
      await writer.createTable(dead, sampleTable(1))
      await writer.close()

      const before = await snapshotTree(root)
      await call('connections/saved/test', { kind: 'object-store', id: view.id })
      const reopened = await call<ConnectionInfo>('connections/saved/open', { kind: 'object-store', id: view.id })
      expect(reopened).toMatchObject({ readOnly: true, pendingRecovery: ['an interrupted import of ns/crashtest'] })
      expect(diffSnapshots(before, await snapshotTree(root))).toEqual([])
      expect(await call<ConnectionInfo>('connections/recover', { connectionId: reopened.id })).not.toHaveProperty('pendingRecovery')
      expect(await lanceNames(root, ['ns'])).toEqual([])
    } finally {
      await service.closeAll()
      client = await DirNamespaceClient.open(root)
    }
  })
})
