/**
 * lancedb's own REST client, run as a separate process by objstore-remote.test.ts: its environment holds no
 * storage credentials, so every byte it reads or writes goes through the location and storage options our server
 * answers. Prints one JSON line: what each step gave (or the error it met).
 */
import * as lancedb from '@lancedb/lancedb'

async function step<T>(out: Record<string, unknown>, name: string, work: () => Promise<T>): Promise<T | undefined> {
  try {
    const value = await work()
    out[name] = value === undefined ? 'ok' : value
    return value
  } catch (error) {
    out[name] = { error: (error as Error).message.split('\n')[0] }
    return undefined
  }
}

async function main(): Promise<void> {
  const [url, key] = process.argv.slice(2) as [string, string]
  const out: Record<string, unknown> = {}
  const db = await lancedb.connectNamespace('rest', { uri: url, headers: { 'x-api-key': key } })
  const rows = (start: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({ id: start + i, label: `row ${start + i}`, vector: [start + i, 1, 0, 0] }))

  if (process.argv[4] === 'create-only') {
    await step(out, 'createTable', async () => (await db.createTable('events', rows(0, 100))).countRows())
    db.close()
    process.stdout.write(JSON.stringify(out) + '\n')
    return
  }
  await step(out, 'createNamespace', async () => {
    await db.createNamespace(['remote'])
    await db.createNamespace(['remote', 'inner'])
  })
  await step(out, 'listNamespaces', async () => (await db.listNamespaces(['remote'])).namespaces)
  await step(out, 'createTable', async () => (await db.createTable('events', rows(0, 100))).countRows())
  await step(out, 'createDuplicate', async () => (await db.createTable('events', rows(0, 1))).countRows())
  await step(out, 'append', async () => {
    const t = await db.openTable('events')
    await t.add(rows(100, 50))
    return t.countRows()
  })
  await step(out, 'read', async () => (await (await db.openTable('events')).query().where('id >= 140').select(['id']).toArray()).map((r) => Number(r.id)))
  await step(out, 'search', async () => (await (await db.openTable('events')).vectorSearch([42, 1, 0, 0]).limit(3).toArray()).map((r) => Number(r.id)))
  await step(out, 'index', async () => {
    const t = await db.openTable('events')
    await t.createIndex('id')
    return (await t.listIndices()).map((i) => i.name)
  })
  await step(out, 'emptyTable', async () => {
    const t = await db.createEmptyTable('blank', (await (await db.openTable('events')).schema()))
    return t.countRows()
  })
  await step(out, 'overwrite', async () => (await db.createTable('blank', rows(500, 4), { mode: 'overwrite' })).countRows())
  await step(out, 'dropBlank', () => db.dropTable('blank'))
  await step(out, 'tableNames', () => db.tableNames())
  await step(out, 'createInChild', async () => (await db.createTable('nested', rows(0, 5), ['team'])).countRows())
  await step(out, 'readChild', async () => (await db.openTable('made', ['team', 'inner'])).countRows())
  await step(out, 'searchChild', async () => (await (await db.openTable('made', ['team', 'inner'])).vectorSearch([3, 1, 0, 0]).limit(1).toArray()).map((r) => Number(r.id)))
  await step(out, 'appendChild', async () => {
    const t = await db.openTable('made', ['team', 'inner'])
    await t.add(rows(10, 2))
    return t.countRows()
  })
  await step(out, 'dropTable', async () => {
    await db.dropTable('events')
    return db.tableNames()
  })
  await step(out, 'dropChild', async () => {
    await db.dropTable('made', ['team', 'inner'])
    return db.tableNames(['team', 'inner'])
  })
  await step(out, 'dropNamespace', async () => {
    for (const ns of [['remote', 'inner'], ['remote'], ['team', 'inner'], ['team']]) await db.dropNamespace(ns)
    return (await db.listNamespaces()).namespaces
  })
  db.close()
  process.stdout.write(JSON.stringify(out) + '\n')
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`)
  process.exit(1)
})
