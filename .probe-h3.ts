import * as lancedb from '@lancedb/lancedb'
import { mkdtempSync, readdirSync, symlinkSync, mkdirSync } from 'node:fs'
async function main() {
  const root = mkdtempSync('/tmp/h3/root-')
  const ns = await lancedb.connectNamespace('dir', { root })
  await ns.createNamespace(['sales'])
  console.log('names0', await ns.tableNames())
  const plain = await lancedb.connect(root)
  await plain.createTable('ext', [{ id: 1 }])
  console.log('names after external root write', await ns.tableNames(), readdirSync(root))
  const o = await ns.openTable('ext'); console.log('open ext rows', await o.countRows())
  // read manifest via symlink
  const side = mkdtempSync('/tmp/h3/side-')
  symlinkSync(root + '/__manifest', side + '/m.lance')
  const m = await (await lancedb.connect(side)).openTable('m')
  console.log((await m.schema()).toString())
  console.log(await m.query().toArray())
  await m.add([{ object_id: 'sales$decl', object_type: 'table', location: 'deadbeef_sales$decl', metadata: null, base_objects: null }])
  console.log('names sales after manifest add', await ns.tableNames(['sales']))
  const ns2 = await lancedb.connectNamespace('dir', { root })
  console.log('fresh conn names sales', await ns2.tableNames(['sales']))
  await plain.createTable('x', [{ id: 5 }]).catch(e => console.log(e.message))
  // write data at the declared location
  const w = await lancedb.connect(root)
  // location deadbeef_sales$decl is not .lance-suffixed; use symlink trick
  mkdirSync(root + '/deadbeef_sales$decl')
  symlinkSync(root + '/deadbeef_sales$decl', side + '/d.lance')
  await (await lancedb.connect(side)).createTable('d', [{ id: 7 }], { mode: 'overwrite' }).catch(e => console.log('write', e.message))
  const t = await ns.openTable('decl', ['sales']); console.log('decl rows', await t.countRows(), t.display())
  const t2 = await ns2.openTable('decl', ['sales']); console.log('decl rows2', await t2.countRows())
}
main().catch(e => console.log('FAIL', e))
