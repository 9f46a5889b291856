import { join } from 'node:path'
import * as lancedb from '@lancedb/lancedb'
import { makeVector } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchOf, tableOf } from '../../../../src/core/arrow'
import { scanWindows } from '../../../../src/core/namespace/dir/windowedScan'
import { makeTempDir, removeDir } from '../../../helpers/catalog'

const FRAGMENTS = 6
const PER_FRAGMENT = 100

describe('scanWindows (a plain view read as bounded queries, the next opened halfway through each)', () => {
  let base: string
  let db: lancedb.Connection
  let table: lancedb.Table

  beforeAll(async () => {
    base = await makeTempDir('lcb-windows-')
    db = await lancedb.connect(join(base, 'db'))
    // One fragment per write: Lance's batches end at fragment ends, so a window of 250 rows spans several batches.
    const part = (f: number) => tableOf([batchOf({ id: { vector: makeVector(Int32Array.from({ length: PER_FRAGMENT }, (_, i) => f * PER_FRAGMENT + i)), nullable: false } })])
    table = await db.createTable('t', part(0))
    for (let f = 1; f < FRAGMENTS; f++) await table.add(part(f))
  })
  afterAll(async () => {
    table?.close()
    db?.close()
    await removeDir(base)
  })

  it('hands on every row once, in table order, whatever the window (the next query opened early, or when asked)', async () => {
    for (const nextEarly of [true, false]) {
      for (const window of [250, 300, 600, 64, 1000]) {
        const ids: number[] = []
        const sizes: number[] = []
        for await (const batch of scanWindows(table, {}, undefined, window, nextEarly)) {
          sizes.push(batch.numRows)
          for (const v of batch.getChild('id')!) ids.push(v as number)
        }
        expect(ids, `window ${window}, next early ${nextEarly}`).toEqual(Array.from({ length: FRAGMENTS * PER_FRAGMENT }, (_, i) => i))
        // Windows of 250 span three batches (100, 100, 50 ...): the next window is opened at 200 rows, before the last.
        if (window === 250) expect(sizes.slice(0, 6)).toEqual([100, 100, 50, 50, 100, 100])
      }
    }
  })

  it('stops cleanly when the consumer stops, with the next window already open, and can scan again', async () => {
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      let seen = 0
      for await (const batch of scanWindows(table, {}, undefined, 250)) {
        seen += batch.numRows
        if (seen >= 200) break // the third batch: the second window's query is open by now
      }
      expect(seen).toBe(200)
      let all = 0
      for await (const batch of scanWindows(table, {}, undefined, 250)) all += batch.numRows
      expect(all).toBe(FRAGMENTS * PER_FRAGMENT)
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
  })

  it('ends with the abort’s reason when cancelled between windows', async () => {
    const controller = new AbortController()
    let seen = 0
    const read = async () => {
      for await (const batch of scanWindows(table, {}, controller.signal, 250)) {
        seen += batch.numRows
        if (seen >= 250) controller.abort(new Error('cancelled by the test'))
      }
    }
    await expect(read()).rejects.toThrow('cancelled by the test')
    expect(seen).toBe(250)
  })
})
