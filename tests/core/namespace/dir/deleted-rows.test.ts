import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tableStats } from '../../../../src/core/namespace/dir/lifecycle'
import { deletionSources, type RawVersion } from '../../../../src/core/namespace/versions'
import { makeTempDir, removeDir } from '../../../helpers/catalog'

/**
 * Stats in the user's words (#40): the rows Lance marks deleted are split into those deletes removed and the old
 * copies updates rewrote, measured on a real table (lancedb writes, the stats read its version history).
 */
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: from + i, score: (from + i) / 2, label: `row-${from + i}` }))

describe('rows marked deleted: by deletes vs old copies of updated rows', () => {
  let dir: string
  let db: lancedb.Connection
  beforeAll(async () => {
    dir = await makeTempDir('lcb-deleted-rows-')
    db = await lancedb.connect(join(dir, 'db'))
  })
  afterAll(async () => {
    db.close()
    await removeDir(dir)
  })

  it('300 deleted and 3,411 updated read as 300 and 3,411 of 3,711 marked, not 3,711 "deleted"', async () => {
    const t = await db.createTable('t', rows(0, 10_000))
    await t.delete('id < 200')
    await t.update({ where: 'id >= 1000 AND id < 3000', values: { label: "'changed'" } })
    await t.add(rows(10_000, 500))
    await t.update({ where: 'id >= 5000 AND id < 6411', valuesSql: { score: 'score + 1' } })
    await t.delete('id >= 9900 AND id < 10000')
    const s = await tableStats(t)
    expect(s.rows).toBe(10_500 - 300)
    expect(s).toMatchObject({ deletedRows: 3_711, deletedByDeletes: 300, rewrittenByUpdates: 3_411 })
    expect(s.deletedSplitEstimated).toBeUndefined()

    // A merge-insert that updates 5 rows and inserts 2: 5 old copies more, no deletes.
    await t.mergeInsert('id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute([...rows(7000, 5), ...rows(20_000, 2)])
    expect(await tableStats(t)).toMatchObject({ deletedRows: 3_716, deletedByDeletes: 300, rewrittenByUpdates: 3_416 })

    // A restore to the version after the first delete: that version's marks again, with their split.
    await t.checkout(2)
    await t.restore()
    expect(await tableStats(t)).toMatchObject({ deletedRows: 200, deletedByDeletes: 200, rewrittenByUpdates: 0 })

    // Optimize purges every mark: nothing to split.
    await t.update({ where: 'id >= 300 AND id < 310', values: { label: "'again'" } })
    await t.optimize({ cleanupOlderThan: new Date(0) })
    expect(await tableStats(t)).toMatchObject({ deletedRows: 0, deletedByDeletes: 0, rewrittenByUpdates: 0 })
  })

  it('marks left by versions no longer kept are neither deletes nor updates; a partial purge makes the split an estimate', () => {
    const v = (version: number, dataRows: number, marked: number, files: number): RawVersion => ({
      version,
      timestamp: version,
      metadata: { total_rows: String(dataRows - marked), total_data_file_rows: String(dataRows), total_deletion_file_rows: String(marked), total_data_files: String(files), total_fragments: String(files), total_files_size: String(files * 1000) },
    })
    // Versions 1–4 pruned: version 5 already has 40 marks; then 10 deleted and 20 updated.
    expect(deletionSources([v(5, 1000, 40, 2), v(6, 1000, 50, 2), v(7, 1020, 70, 3)], 7)).toEqual({ byDeletes: 10, byUpdates: 20, estimated: false })
    // A compaction of part of the fragments purges 35 of 70 marks: which ones is not recorded.
    expect(deletionSources([v(1, 1000, 0, 1), v(2, 1000, 30, 1), v(3, 1040, 70, 2), v(4, 1005, 35, 2)], 4)).toEqual({ byDeletes: 15, byUpdates: 20, estimated: true })
    // Asked for a version the list does not hold: no split.
    expect(deletionSources([v(1, 1000, 0, 1)], 3)).toBeUndefined()
  })
})
