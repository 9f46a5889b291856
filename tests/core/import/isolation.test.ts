/**
 * Every dropped file is read in a reader process of its own (src/core/import/reader): a reader that aborts, is
 * killed, or passes its memory ceiling or time budget ends alone; the user reads what happened in words; the catalog
 * is as it was; the next file works. All through the service, as the sheet and the jobs panel call it.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppErrorData, ImportJobInfo, ImportPreview, Result } from '../../../src/contract'
import { connectNamespace } from '../../../src/core/namespace/connect'
import { CatalogService, MemoryRecentsStore, type ServiceOptions } from '../../../src/core/service'
import { bundleScript } from '../../helpers/bundle'
import { until } from '../../helpers/processes'
import { writeZonedParquet } from '../../fixtures/import/zoned'
import { ABORTING_READER_ENV, setEnv } from '../../fixtures/import/hostile'
import { stagedLeftovers } from './helpers'

let dir: string
let catalog: string
const services: CatalogService[] = []
let service: CatalogService
let connectionId: string
let restoreEnv: () => void

/** A service over the test catalog, with the given reader options (each its own session, as a restarted app). */
async function open(readers?: ServiceOptions['readers']): Promise<{ service: CatalogService; connectionId: string }> {
  const s = new CatalogService({ host: 'harness', version: 'test', recents: new MemoryRecentsStore(), readers })
  services.push(s)
  const opened = value(await s.dispatch('connections/openDirectory', { path: catalog })) as { id: string }
  return { service: s, connectionId: opened.id }
}

beforeAll(async () => {
  // The zoned Parquet file imports now; with polars' zone check back on it aborts its reader, as these tests need.
  restoreEnv = setEnv(ABORTING_READER_ENV)
  dir = await mkdtemp(join(tmpdir(), 'lcb-isolation-'))
  catalog = join(dir, 'catalog')
  const created = await connectNamespace('dir', { root: catalog, create: 'true' })
  await created.close()
  // No spare readers here: the tests below find the one reader of an import among this process's children.
  ;({ service, connectionId } = await open({ spare: false }))
  await writeZonedParquet(join(dir, 'zoned.parquet'), '+05:30')
  await writeFile(join(dir, 'good.csv'), ['id,label', ...Array.from({ length: 50 }, (_, i) => `${i},row ${i}`)].join('\n'))
  // Big enough that an import with 1 MiB commits is still running when the test acts on it.
  await writeFile(join(dir, 'big.csv'), ['id,label', ...Array.from({ length: 300_000 }, (_, i) => `${i},label-${i}-${'x'.repeat(40)}`)].join('\n'))
})

afterAll(async () => {
  restoreEnv()
  for (const s of services) await s.closeAll()
  await rm(dir, { recursive: true, force: true })
})

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.value
}

function failure(result: Result<unknown>): AppErrorData {
  if (result.ok) throw new Error('expected a failure')
  return result.error
}

const source = (name: string) => ({ path: join(dir, name) })

async function start(s: CatalogService, id: string, file: string, name: string, mode: 'create' | 'append' | 'overwrite' = 'create'): Promise<ImportJobInfo> {
  return value(await s.dispatch('import/start', { connectionId: id, namespace: [], name, mode, source: source(file) })) as ImportJobInfo
}

async function tables(s: CatalogService, id: string): Promise<string[]> {
  return (value(await s.dispatch('tables/list', { connectionId: id, namespace: [] })) as { items: string[] }).items
}

async function describeTable(s: CatalogService, id: string, name: string): Promise<{ version: number; rowCount: number; schema: unknown }> {
  return value(await s.dispatch('tables/describe', { connectionId: id, namespace: [], name })) as { version: number; rowCount: number; schema: unknown }
}

/** The reader processes this process runs now (children whose command is the reader's script). Linux. */
function readerPids(): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1])
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('importReader')) pids.push(Number(entry))
    } catch {
      // gone meanwhile
    }
  }
  return pids
}

/** Wait until the job has written rows (it is mid-import), then name the reader reading its file. */
async function midImport(s: CatalogService, job: ImportJobInfo): Promise<number> {
  let info = job
  await until(() => {
    info = s.imports.jobs.list().find((j) => j.id === job.id)!
    return info.state !== 'queued' && info.state !== 'running' ? true : info.progress.rows > 0
  })
  expect(info.state, 'the import ended before the test could act on it').toBe('running')
  const pids = readerPids()
  expect(pids).toHaveLength(1)
  return pids[0]!
}

/** 1 MiB commits: the 18 MB CSV makes ~20, so an import is seen between two of them. */
async function withSmallCommits<T>(work: () => Promise<T>): Promise<T> {
  const before = process.env.LCB_IMPORT_COMMIT_MB
  process.env.LCB_IMPORT_COMMIT_MB = '1'
  try {
    return await work()
  } finally {
    if (before === undefined) delete process.env.LCB_IMPORT_COMMIT_MB
    else process.env.LCB_IMPORT_COMMIT_MB = before
  }
}

const ZONE_WORDS = /^The Parquet reader stopped on the timestamp zone \+05:30 in column `ts` of zoned\.parquet$/

describe('a reader that aborts ends alone', () => {
  it('without a reader process, reading the zoned Parquet file aborts the process that reads it', async () => {
    const fixture = await bundleScript(join(__dirname, 'fixtures', 'inspectInProcess.ts'))
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [fixture, join(dir, 'zoned.parquet')], { cwd: join(__dirname, '../../..'), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_BACKTRACE: '0' } })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.on('error', reject)
      child.on('exit', (code, signal) => resolve({ code, signal, output }))
    })
    expect(ended.signal, ended.output).toBe('SIGABRT')
    expect(ended.output).toMatch(/panicked at[^\n]*\n[^\n]*unable to parse time zone: '\+05:30'/)
    expect(ended.output).not.toMatch(/survived|failed:/)
  })

  it('previewing it says so in words naming the zone and its column; the next file previews', async () => {
    const preview = failure(await service.dispatch('import/preview', { connectionId, namespace: [], source: source('zoned.parquet') }))
    expect(preview).toMatchObject({ code: 'unsupported', message: expect.stringMatching(ZONE_WORDS), hint: expect.stringMatching(/UTC/) })
    expect(preview.detail).toMatch(/killed by SIGABRT: unable to parse time zone: '\+05:30'/)
    const sample = failure(await service.dispatch('import/sample', { connectionId, namespace: [], source: source('zoned.parquet') }))
    expect(sample.message).toMatch(ZONE_WORDS)
    // This process (the host) answers, and reads the next file.
    const good = value(await service.dispatch('import/preview', { connectionId, namespace: [], source: source('good.csv') })) as ImportPreview
    expect(good).toMatchObject({ format: 'csv', rowCount: 50, sampleRowCount: 20 })
    expect(tableFromIPC(value(await service.dispatch('import/sample', { connectionId, namespace: [], source: source('good.csv') })) as Uint8Array).numRows).toBe(20)
  })

  it('importing it fails in words, leaves the catalog as it was, and the next import works', async () => {
    const before = await tables(service, connectionId)
    const job = await start(service, connectionId, 'zoned.parquet', 'zoned')
    const done = await service.imports.jobs.wait(job.id)
    expect(done.state).toBe('failed')
    expect(done.error).toMatchObject({ code: 'unsupported', message: expect.stringMatching(ZONE_WORDS) })
    expect(await tables(service, connectionId)).toEqual(before)
    expect(await stagedLeftovers(await connectNamespace('dir', { root: catalog }))).toEqual([])
    const next = await service.imports.jobs.wait((await start(service, connectionId, 'good.csv', 'after_zoned')).id)
    expect(next).toMatchObject({ state: 'done', result: { rowCount: 50 } })
  })

  it.each(['+0530', 'UTC+01', 'Mars/Olympus'])('a timestamp zone %s polars cannot read is named too', async (zone) => {
    const file = `zone-${zone.replace(/\W/g, '_')}.parquet`
    await writeZonedParquet(join(dir, file), zone)
    const error = failure(await service.dispatch('import/preview', { connectionId, namespace: [], source: source(file) }))
    expect(error.message).toBe(`The Parquet reader stopped on the timestamp zone ${zone} in column \`ts\` of ${file}`)
  })
})

describe('a reader killed mid-import', () => {
  it.each(['create', 'append', 'overwrite'] as const)('%s: the job fails in words, the table is as it was, nothing is left behind', async (mode) => {
    const name = `killed_${mode}`
    if (mode !== 'create') await service.imports.jobs.wait((await start(service, connectionId, 'good.csv', name)).id)
    const before = mode === 'create' ? null : await describeTable(service, connectionId, name)
    const { done, pid } = await withSmallCommits(async () => {
      const job = await start(service, connectionId, 'big.csv', name, mode)
      const pid = await midImport(service, job)
      process.kill(pid, 'SIGKILL')
      return { done: await service.imports.jobs.wait(job.id), pid }
    })
    expect(done.state).toBe('failed')
    expect(done.error).toMatchObject({ code: 'unavailable', message: 'The CSV reader was stopped from outside while it read big.csv (it was killed by SIGKILL)' })
    // An append is rolled back by a restore (a new version with the old rows); an overwrite never touched the table.
    if (mode === 'create') expect(await tables(service, connectionId)).not.toContain(name)
    else expect(await describeTable(service, connectionId, name)).toMatchObject({ rowCount: before!.rowCount, schema: before!.schema, ...(mode === 'overwrite' ? { version: before!.version } : {}) })
    expect(await stagedLeftovers(await connectNamespace('dir', { root: catalog }))).toEqual([])
    // What the reader had in the temp folder (polars' pipe, the chunks' socket) goes with it.
    await until(() => !readdirSync(tmpdir()).some((f) => f.startsWith(`lcb-native-${pid}-`)))
  })

  it('cancelling an import ends its reader at once, even a reader that is stuck, and the table is absent', async () => {
    const { done, pid } = await withSmallCommits(async () => {
      const job = await start(service, connectionId, 'big.csv', 'cancelled')
      const pid = await midImport(service, job)
      // Stuck: it answers nothing more (the import would wait out its idle budget, 2 minutes, for its next chunk).
      process.kill(pid, 'SIGSTOP')
      value(await service.dispatch('jobs/cancel', { jobId: job.id }))
      return { done: await service.imports.jobs.wait(job.id), pid }
    })
    expect(done.state).toBe('cancelled')
    await until(() => !existsSync(`/proc/${pid}`))
    expect(await tables(service, connectionId)).not.toContain('cancelled')
    expect(await stagedLeftovers(await connectNamespace('dir', { root: catalog }))).toEqual([])
  })
})

describe('ceilings and budgets', () => {
  it.each(['parent', 'self'] as const)('a reader over its memory ceiling is stopped, in words (watched by the %s)', async (watch) => {
    // Any reader needs more than 40 MiB (Node alone takes ~45): the first sample is over it.
    const small = await open({ rssMb: 40, watch, spare: false })
    const error = failure(await small.service.dispatch('import/preview', { connectionId: small.connectionId, namespace: [], source: source('big.csv') }))
    expect(error).toMatchObject({ code: 'unsupported', message: expect.stringMatching(/^The (CSV )?reader needed more than 40 MiB of memory for big\.csv, so it was stopped$/) })
    expect(error.detail).toMatch(/the ceiling is 40 MiB \(LCB_IMPORT_READER_RSS_MB\)/)
  })

  it('a reader over its JavaScript heap is stopped, in words', async () => {
    await writeFile(join(dir, 'wide.csv'), ['a,b', ...Array.from({ length: 10 }, (_, i) => `${i},${'y'.repeat(5_000_000)}`)].join('\n'))
    const small = await open({ heapMb: 16, spare: false })
    const error = failure(await small.service.dispatch('import/preview', { connectionId: small.connectionId, namespace: [], source: source('wide.csv') }))
    expect(error).toMatchObject({ code: 'unsupported', message: 'The CSV reader needed more than its 16 MiB of JavaScript memory for wide.csv, so it stopped' })
  })

  it('a preview over its time budget is stopped, in words (the budget from the environment)', async () => {
    const before = process.env.LCB_IMPORT_READER_PREVIEW_S
    process.env.LCB_IMPORT_READER_PREVIEW_S = '0.05'
    try {
      const { service: s, connectionId: id } = await open({ spare: false })
      const error = failure(await s.dispatch('import/preview', { connectionId: id, namespace: [], source: source('big.csv') }))
      expect(error).toMatchObject({ code: 'timeout', message: expect.stringMatching(/^The (CSV )?reader took more than 0\.05 seconds to preview big\.csv, so it was stopped$/) })
    } finally {
      if (before === undefined) delete process.env.LCB_IMPORT_READER_PREVIEW_S
      else process.env.LCB_IMPORT_READER_PREVIEW_S = before
    }
  })

  it('an import without progress for its idle budget is stopped, and the catalog is as it was', async () => {
    const { service: s, connectionId: id } = await open({ idleSeconds: 0.05, spare: false })
    const done = await s.imports.jobs.wait((await start(s, id, 'good.csv', 'idle')).id)
    expect(done.state).toBe('failed')
    expect(done.error).toMatchObject({ code: 'timeout', message: expect.stringMatching(/made no progress on good\.csv for 0\.05 seconds, so the import was stopped$/) })
    expect(await tables(s, id)).not.toContain('idle')
  })
})

describe('a reader started ahead', () => {
  it('answers the next preview, and one started with other ceilings is not used', async () => {
    await writeFile(join(dir, 'other.csv'), 'a,b\n1,2\n')
    await writeFile(join(dir, 'third.csv'), 'a,b\n3,4\n')
    const { service: s, connectionId: id } = await open()
    value(await s.dispatch('import/preview', { connectionId: id, namespace: [], source: source('good.csv') }))
    // Once that reader has ended, one is started ahead, idle.
    let spares: number[] = []
    await until(() => (spares = readerPids()).length === 1)
    const [spare] = spares
    const preview = value(await s.dispatch('import/preview', { connectionId: id, namespace: [], source: source('other.csv') })) as ImportPreview
    expect(preview.rowCount).toBe(1)
    // It read that file and ended; a new one waits.
    await until(() => !existsSync(`/proc/${spare}`) && readerPids().length === 1)
    // A ceiling changed since the spare started: a reader with the new ceiling reads (the spare, at 1536 MiB, would pass).
    const before = process.env.LCB_IMPORT_READER_RSS_MB
    process.env.LCB_IMPORT_READER_RSS_MB = '40'
    try {
      const error = failure(await s.dispatch('import/preview', { connectionId: id, namespace: [], source: source('third.csv') }))
      expect(error.message).toMatch(/needed more than 40 MiB of memory for third\.csv/)
    } finally {
      if (before === undefined) delete process.env.LCB_IMPORT_READER_RSS_MB
      else process.env.LCB_IMPORT_READER_RSS_MB = before
    }
  })
})
