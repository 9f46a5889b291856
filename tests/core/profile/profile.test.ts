import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { Bool, DateDay, Field, Float64, List, TimeUnit, Timestamp, Utf8, makeData, makeVector, vectorFromArray } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROFILE_EXACT_DISTINCT_LIMIT, type ColumnProfile, type ConnectionInfo, type JobInfo, type ProfileJobInfo, type Result, type TableProfile } from '../../../src/contract'
import { batchOf, float32Vectors, tableOf } from '../../../src/core/arrow'
import { CatalogService, MemoryRecentsStore } from '../../../src/core/service'
import { binPredicate } from '../../../src/renderer/features/profile/binFilter'
import { buildCatalog, makeTempDir, removeDir } from '../../helpers/catalog'

const N = 20_000
const DIM = 4
const FIRST_DAY = 19_000 // 2022-01-08

function value<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`)
  return result.value as T
}

/** Every kind a profile describes, with nulls, NaNs, NaN vectors and zero vectors at known rows. */
function kindsTable(rows: number, start = 0) {
  const vectors = new Float32Array(rows * DIM)
  for (let r = 0; r < rows; r++) {
    const i = start + r
    const v = i % 1000 === 5 ? [0, 0, 0, 0] : i % 1000 === 6 ? [1, Number.NaN, 0, 0] : [i % 10, 1, 0, 0]
    vectors.set(v, r * DIM)
  }
  const ids = Array.from({ length: rows }, (_, r) => start + r)
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from(ids, (i) => BigInt(i))), nullable: false },
      score: vectorFromArray(ids.map((i) => (i % 500 === 7 ? Number.NaN : (i % 1000) + 0.25)), new Float64()),
      label: vectorFromArray(ids.map((i) => (i % 10 === 0 ? null : `l${i % 7}`)), new Utf8()),
      uid: vectorFromArray(ids.map((i) => `u${i}`), new Utf8()),
      day: makeVector(makeData({ type: new DateDay(), length: rows, nullCount: 0, data: Int32Array.from(ids, (i) => FIRST_DAY + (i % 365)) })),
      at: makeVector(makeData({ type: new Timestamp(TimeUnit.MICROSECOND, 'UTC'), length: rows, nullCount: 0, data: BigInt64Array.from(ids, (i) => BigInt(1_700_000_000_000 + (i % 97) * 3_600_000) * 1000n) })),
      flag: vectorFromArray(ids.map((i) => i % 3 === 0), new Bool()),
      tags: vectorFromArray(ids.map((i) => Array.from({ length: i % 4 }, (_, k) => `t${k}`)), new List(new Field('item', new Utf8(), true))),
      vec: { vector: float32Vectors(vectors, DIM), nullable: false },
      place: vectorFromArray(ids.map((i) => (i % 4 === 0 ? null : i % 2 ? 'Zürich' : 'Oslo')), new Utf8()),
      big: vectorFromArray(ids.map((i) => (i % 2 === 0 ? Number.NaN : i)), new Float64()),
    }),
  ])
}

describe('column profiles (core, a real Lance table)', () => {
  let base: string
  let root: string
  let service: CatalogService
  let connection: ConnectionInfo
  let db: lancedb.Connection
  let lance: lancedb.Table
  const events: ProfileJobInfo[] = []
  const ref = () => ({ connectionId: connection.id, namespace: [] as string[], name: 'kinds' })

  beforeAll(async () => {
    base = await makeTempDir('lcb-profile-')
    root = await buildCatalog(join(base, 'catalog'), { tables: [{ namespace: [], name: 'kinds', data: kindsTable(N) }] })
    service = new CatalogService({
      host: 'harness',
      version: '0',
      recents: new MemoryRecentsStore(),
      emit: (name, payload) => {
        if (name === 'jobs/progress' && (payload as JobInfo).kind === 'profile') events.push(payload as ProfileJobInfo)
      },
    })
    connection = value<ConnectionInfo>(await service.dispatch('connections/openDirectory', { path: root }))
    db = await lancedb.connectNamespace('dir', { root })
    lance = await db.openTable('kinds')
  })
  afterAll(async () => {
    lance?.close()
    db?.close()
    await service.closeAll()
    await removeDir(base)
  })

  async function profile(view: { version?: number; filter?: string }): Promise<ProfileJobInfo> {
    const started = value<ProfileJobInfo>(await service.dispatch('profile/start', { ...ref(), view }))
    return service.profiles.wait(started.id)
  }
  const column = (p: TableProfile, name: string): ColumnProfile => p.columns.find((c) => c.name === name)!
  const count = (filter: string) => lance.countRows(filter)

  it('describes every column with values lancedb’s own queries agree with', async () => {
    const job = await profile({})
    expect(job.state).toBe('done')
    expect(job.cached).toBe(false)
    const p = job.result!
    expect(p.version).toBe(await lance.version())
    expect(p.rows).toBe(N)
    expect(p.columns.map((c) => c.name)).toEqual(['id', 'score', 'label', 'uid', 'day', 'at', 'flag', 'tags', 'vec', 'place', 'big'])

    const label = column(p, 'label')
    expect(label.kind).toBe('text')
    expect(label.nulls).toBe(await count('label IS NULL'))
    expect(label.distinct).toEqual({ count: 7, exact: true, limit: PROFILE_EXACT_DISTINCT_LIMIT })
    expect(label.top!.exact).toBe(true)
    for (const top of label.top!.values) expect(top.count).toBe(await count(`label = '${top.value}'`))
    expect(label.lengths).toEqual({ min: 2, max: 2, mean: 2 })

    // 20,000 distinct values are under the exact limit: counted exactly (an estimate here read up to 2 % off).
    const uid = column(p, 'uid')
    expect(uid.distinct).toEqual({ count: N, exact: true, limit: PROFILE_EXACT_DISTINCT_LIMIT })

    const id = column(p, 'id')
    expect(id.kind).toBe('integer')
    expect(id.stats).toEqual({ min: 0, max: N - 1, mean: (N - 1) / 2 })
    expect(id.distinct).toEqual({ count: N, exact: true, limit: PROFILE_EXACT_DISTINCT_LIMIT })
    // Each bar counts exactly the rows its filter selects.
    const idBins = id.histogram!
    expect(idBins.reduce((s, b) => s + b.count, 0)).toBe(N)
    for (const bin of idBins) expect(bin.count).toBe(await count(binPredicate('id', 'integer', bin)))

    const score = column(p, 'score')
    expect(score.nans).toBe(N / 500)
    expect(score.nulls).toBe(0)
    expect(score.stats!.min).toBe(0.25)
    expect(score.stats!.max).toBe(999.25)
    for (const bin of score.histogram!) expect(bin.count).toBe(await count(binPredicate('score', 'number', bin)))

    const day = column(p, 'day')
    expect(day.kind).toBe('date')
    expect(day.distinct).toEqual({ count: 365, exact: true, limit: PROFILE_EXACT_DISTINCT_LIMIT })
    expect(day.stats!.min).toBe(FIRST_DAY * 86_400_000)
    expect(day.histogram!.reduce((s, b) => s + b.count, 0)).toBe(N)
    for (const bin of day.histogram!) expect(bin.count).toBe(await count(binPredicate('day', 'date', bin)))

    const at = column(p, 'at')
    expect(at.kind).toBe('timestamp')
    expect(at.distinct).toEqual({ count: 97, exact: true, limit: PROFILE_EXACT_DISTINCT_LIMIT })
    for (const bin of at.histogram!) expect(bin.count).toBe(await count(binPredicate('at', 'timestamp', bin)))

    const flag = column(p, 'flag')
    expect(flag.top!.values).toEqual([
      { value: 'false', count: await count('NOT flag'), exact: true },
      { value: 'true', count: await count('flag'), exact: true },
    ])

    // Text beyond ASCII: lengths in characters, not bytes.
    const place = column(p, 'place')
    expect(place.nulls).toBe(await count('place IS NULL'))
    expect(place.top!.values).toEqual([
      { value: 'Zürich', count: await count(`place = 'Zürich'`), exact: true },
      { value: 'Oslo', count: await count(`place = 'Oslo'`), exact: true },
    ])
    expect(place.lengths).toEqual({ min: 4, max: 6, mean: 5 + 1 / 3 })

    expect(column(p, 'tags').lengths).toEqual({ min: 0, max: 3, mean: 1.5 })

    const vec = column(p, 'vec')
    expect(vec.kind).toBe('vector')
    expect(vec.vector!.dimension).toBe(DIM)
    expect(vec.vector!.nanVectors).toBe(N / 1000)
    expect(vec.vector!.zeroVectors).toBe(N / 1000)
    // Ten distinct vectors ([0..9, 1, 0, 0]) and the zero vector: every other non-NaN vector repeats one of them.
    expect(vec.vector!.duplicateVectors).toBe(N - N / 1000 - 11)
    // Zero vectors have norm 0; NaN vectors are left out of the norms.
    expect(vec.vector!.norms!.min).toBe(0)
    expect(vec.vector!.norms!.max).toBeCloseTo(Math.sqrt(82))
    expect(vec.vector!.normHistogram!.reduce((s, b) => s + b.count, 0)).toBe(N - N / 1000)

    // Half NaN: the NaNs are counted, the rest described.
    const big = column(p, 'big')
    expect(big.nans).toBe(N / 2)
    expect(big.stats!.min).toBe(1)

    expect(events.some((e) => e.id === job.id && e.state === 'done')).toBe(true)
  })

  it('profiles the filtered view: only the rows that match', async () => {
    const job = await profile({ filter: 'id < 5000 AND flag' })
    expect(job.state).toBe('done')
    const p = job.result!
    expect(p.filter).toBe('id < 5000 AND flag')
    expect(p.rows).toBe(await count('id < 5000 AND flag'))
    expect(column(p, 'label').nulls).toBe(await count('id < 5000 AND flag AND label IS NULL'))
    expect(column(p, 'flag').top!.values).toEqual([{ value: 'true', count: p.rows, exact: true }])
    expect(column(p, 'id').stats!.max).toBe(4998)
  })

  it('keeps a version’s profile (asking again is instant) and computes a newer version afresh', async () => {
    const first = await profile({})
    expect(first.cached).toBe(true)
    const v1 = first.version
    expect(first.result!.rows).toBe(N)

    // Rows without NaN vectors (lancedb's add refuses those).
    await lance.add(kindsTable(100, N + 10))
    const v2 = await lance.version()
    expect(v2).toBeGreaterThan(v1)

    // The view still reading v1 gets v1's profile; the latest is a new scan that says which version it describes.
    const old = await profile({ version: v1 })
    expect(old.cached).toBe(true)
    expect(old.version).toBe(v1)
    expect(old.result!.rows).toBe(N)
    const latest = await profile({})
    expect(latest.cached).toBe(false)
    expect(latest.version).toBe(v2)
    expect(latest.result!.rows).toBe(N + 100)
    expect(column(latest.result!, 'id').stats!.max).toBe(N + 109)
  })

  it('a cancelled profile keeps nothing: the next one scans again', async () => {
    const started = value<ProfileJobInfo>(await service.dispatch('profile/start', { ...ref(), view: { filter: 'id >= 0' } }))
    value(await service.dispatch('jobs/cancel', { jobId: started.id }))
    const ended = await service.profiles.wait(started.id)
    expect(ended.state).toBe('cancelled')
    expect(ended.result).toBeNull()
    expect(value<ProfileJobInfo>(await service.dispatch('profile/get', { jobId: started.id })).state).toBe('cancelled')
    const again = await profile({ filter: 'id >= 0' })
    expect(again.cached).toBe(false)
    expect(again.state).toBe('done')

    // Closing and reopening at once: the new Summary does not follow the scan being cancelled.
    const closed = value<ProfileJobInfo>(await service.dispatch('profile/start', { ...ref(), view: { filter: 'id >= 1' } }))
    value(await service.dispatch('jobs/cancel', { jobId: closed.id }))
    const reopened = value<ProfileJobInfo>(await service.dispatch('profile/start', { ...ref(), view: { filter: 'id >= 1' } }))
    expect(reopened.id).not.toBe(closed.id)
    expect((await service.profiles.wait(reopened.id)).state).toBe('done')
    expect((await service.profiles.wait(closed.id)).state).toBe('cancelled')
  })

  it('refuses bad input in words (4xx, never a crash)', async () => {
    const failed = await profile({ filter: 'no_such_column > 1' })
    expect(failed.state).toBe('failed')
    expect(failed.error!.message).toMatch(/no_such_column/)
    const unknown = await service.dispatch('profile/get', { jobId: 'pnothere' })
    expect(unknown.ok ? null : unknown.error.code).toBe('not_found')
    const malformed = await service.dispatch('profile/get', { jobId: '../x' })
    expect(malformed.ok ? null : malformed.error.code).toBe('invalid_input')
    const noTable = await service.dispatch('profile/start', { ...ref(), name: 'missing', view: {} })
    expect(noTable.ok ? null : noTable.error.code).toBe('not_found')
  })
})
