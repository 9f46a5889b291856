/**
 * Object storage: a catalog in Azurite (Microsoft's Azure Storage emulator, in memory, on loopback)
 * read through the whole path versus bare @lancedb/lancedb on the same emulator, in the same run:
 * - a page at offsets 0 / middle / end of a big table: DirNamespaceClient.readPage (as the UI asks: through the
 *   view pinned at the described version) → IPC bytes → Electron's structured clone → apache-arrow decode,
 *   versus bare `table.query().offset(k).limit(n).toArrow()` on a warm handle (target ≤ 1.2×);
 * - listing namespaces and tables, and describe (row count, schema, version, indexes), versus the same
 *   lancedb calls (target ≤ 1.2×).
 * Knobs: BENCH_OBJ_ROWS (1,000,000), BENCH_OBJ_DIM (16), BENCH_PAGE_ROWS (200), BENCH_OBJ_REPS (31),
 * BENCH_OBJ_NS (20 namespaces × 2 tables). The emulator is in memory, so the data is generated every run.
 */
import '../helpers/no-cloud'
import * as v8 from 'node:v8'
import * as lancedb from '@lancedb/lancedb'
import { tableFromIPC, type Table } from 'apache-arrow'
import { exactArrayBuffer, seededRandom } from '../../src/core/arrow'
import { DirNamespaceClient } from '../../src/core/namespace/dir'
import { storageProperties } from '../../src/core/namespace/objectStore'
import { startAzurite } from '../helpers/azurite'
import { chunk } from './data'
import { compare, count, envInt, ms, ratio, time, verdict, type Section } from './lib'

const TARGET = 1.2
const CHUNK_ROWS = 100_000
const TABLE = { namespace: ['bench'], name: 'rows' }

export const section: Section = {
  title: 'object storage (Azurite): paging, listing and describe vs bare @lancedb/lancedb',
  async run(ctx) {
    const rows = envInt('BENCH_OBJ_ROWS', 1_000_000)
    const dim = envInt('BENCH_OBJ_DIM', 16)
    const pageRows = envInt('BENCH_PAGE_ROWS', 200)
    const reps = envInt('BENCH_OBJ_REPS', 31)
    const namespaces = envInt('BENCH_OBJ_NS', 20)
    const notes: string[] = []
    const azurite = await startAzurite()
    try {
      const root = await azurite.freshRoot('bench')
      const storageOptions = azurite.storageOptions
      const connect = () => lancedb.connectNamespace('dir', { root, extraProperties: storageProperties(storageOptions) }, { storageOptions })

      ctx.log(`generating ${count(rows)} rows × ${dim}-d vectors and ${namespaces} namespaces in Azurite…`)
      const [generated] = await time(async () => {
        const writer = await DirNamespaceClient.open(root, { create: true, storageOptions })
        await writer.close()
        const db = await connect()
        await db.createNamespace([...TABLE.namespace])
        const random = seededRandom(42)
        let table: lancedb.Table | undefined
        for (let first = 0; first < rows; first += CHUNK_ROWS) {
          const data = chunk(first, Math.min(CHUNK_ROWS, rows - first), dim, random)
          if (!table) table = await db.createTable(TABLE.name, data, [...TABLE.namespace], { storageOptions })
          else await table.add(data)
        }
        const one = chunk(0, 1, dim, random)
        for (let n = 0; n < namespaces; n++) {
          const path = [`ns${String(n).padStart(3, '0')}`]
          await db.createNamespace(path)
          for (const name of ['a', 'b']) await db.createTable(name, one, path, { storageOptions })
        }
        db.close()
      })
      notes.push(
        `Azurite 3.35.0 in memory on 127.0.0.1; table: ${count(rows)} rows of {id Int64, label Utf8 (20 chars), score Float64, vector FixedSizeList<Float32>[${dim}]} in ${Math.ceil(rows / CHUNK_ROWS)} fragments (generated in ${(generated / 1000).toFixed(1)} s); ${count(pageRows)}-row pages; ${reps} interleaved reps (ABBA), medians`,
        'bare = @lancedb/lancedb 0.31.0 on its own connection to the same emulator, with a warm table handle',
      )

      const client = await DirNamespaceClient.open(root, { storageOptions })
      const db = await connect()
      const bare = await db.openTable(TABLE.name, [...TABLE.namespace], { storageOptions })
      const described = await client.describeTable(TABLE, { indexes: true })
      const view = { version: described.version }

      const pageRowsOut: (string | number)[][] = []
      for (const offset of [0, Math.floor(rows / 2), Math.max(0, rows - pageRows)]) {
        const expected = Math.min(pageRows, rows - offset)
        const check = (page: Table) => {
          if (page.numRows !== expected) throw new Error(`page at ${offset} has ${page.numRows} rows, expected ${expected}`)
        }
        const whole = async () => {
          const bytes = await client.readPage(TABLE, { offset, limit: pageRows, view })
          check(tableFromIPC(new Uint8Array(v8.deserialize(v8.serialize(exactArrayBuffer(bytes))) as ArrayBuffer)))
        }
        const plain = () => client.readPage(TABLE, { offset, limit: pageRows })
        const bareQuery = async () => check(await bare.query().offset(offset).limit(pageRows).toArrow())
        const path = await compare(whole, bareQuery, { reps, warmup: 3 })
        const direct = await compare(plain, bareQuery, { reps, warmup: 3 })
        pageRowsOut.push([count(offset), count(expected), ms(path.bare), ms(path.ours), ratio(path.ratio), ms(direct.ours), ratio(direct.ratio), verdict(path.ratio, TARGET)])
      }

      const listed: [string, () => Promise<unknown>, () => Promise<unknown>][] = [
        [`namespaces of the root (${namespaces + 1})`, () => client.listNamespaces([]), () => db.listNamespaces([])],
        ['tables of ns010 (2)', () => client.listTables(['ns010']), () => db.tableNames(['ns010'])],
        ['tables of the root (0)', () => client.listTables([]), () => db.tableNames([])],
        [
          'describe bench/rows (rows, schema, version, indexes)',
          () => client.describeTable(TABLE, { indexes: true }),
          async () => {
            const table = await db.openTable(TABLE.name, [...TABLE.namespace], { storageOptions })
            await Promise.all([table.version(), table.schema(), table.countRows(), table.listIndices()])
          },
        ],
      ]
      const otherRows: (string | number)[][] = []
      for (const [label, ours, bareOp] of listed) {
        const r = await compare(ours, bareOp, { reps, warmup: 3 })
        otherRows.push([label, ms(r.bare), ms(r.ours), ratio(r.ratio), verdict(r.ratio, TARGET)])
      }
      db.close()
      await client.close()
      return {
        notes,
        tables: [
          {
            title: 'Page latency on Azurite (ms): readPage through the pinned view → IPC bytes → Electron clone → decode, vs bare query().offset().limit().toArrow()',
            columns: ['offset', 'rows', 'bare', 'whole path', 'ratio (whole path)', 'readPage (no view)', 'ratio (readPage)', 'verdict (whole path)'],
            rows: pageRowsOut,
          },
          { title: 'Listing and describe on Azurite (ms), medians', columns: ['operation', 'bare', 'ours', 'ratio', 'verdict'], rows: otherRows },
        ],
      }
    } finally {
      await azurite.stop()
    }
  },
}
