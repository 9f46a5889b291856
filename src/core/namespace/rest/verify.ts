import * as arrow from 'apache-arrow'
import { AppError } from '../../../contract'
import { toAppError } from '../../errors'
import { listAll } from '../client'
import type { CatalogInventory, VerificationReport, VerificationStep } from '../../../contract/connections'
import type { RestNamespaceClient } from './client'
import { describeInventory, takeInventory } from './inventory'

export type { VerificationReport, VerificationStep }

/**
 * "Test connection": the specification's verification sequence. Always lists the tables
 * (`GET /v1/tables`, the root only) and walks a bounded number of namespaces to count what the server
 * holds; only with `write: true` does it create a small table (`POST /v1/tables/{name}`), list again to
 * see it, and drop it again.
 */
export async function verifyConnection(
  client: RestNamespaceClient,
  options: { write: boolean; signal?: AbortSignal; tableName?: string; namespaceLimit?: number },
): Promise<VerificationReport> {
  const steps: VerificationStep[] = []
  let tables: string[] = []
  let inventory: CatalogInventory | undefined
  const finish = (error?: unknown): VerificationReport => ({
    ok: error === undefined,
    tables,
    wrote: options.write,
    steps,
    ...(inventory ? { inventory } : {}),
    ...(error !== undefined ? { error: toAppError(error).toData() } : {}),
    capabilities: client.capabilities.snapshot(),
  })
  const run = async <T>(step: VerificationStep['step'], work: () => Promise<T>, describe: (value: T) => string): Promise<T> => {
    const started = performance.now()
    try {
      const value = await work()
      steps.push({ step, ok: true, message: describe(value), ms: performance.now() - started })
      return value
    } catch (error) {
      steps.push({ step, ok: false, message: toAppError(error).message, ms: performance.now() - started })
      throw error
    }
  }
  const signal = options.signal
  try {
    tables = await run(
      'list',
      () => listAll((o) => client.listAllTables({ ...o, signal })),
      (t) => `Connected: GET /v1/tables lists ${t.length} table${t.length === 1 ? '' : 's'} at the root`,
    )
    // Counting is part of the report, not of the test: a namespace route the server refuses is said, not failed.
    inventory = await run('walk', () => takeInventory(client, { rootTables: tables.length, limit: options.namespaceLimit, signal }), describeInventory)
    if (!options.write) return finish()
    const name = options.tableName ?? `lcb_verify_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
    const data = arrow.tableFromArrays({ id: BigInt64Array.from([1n, 2n, 3n]), label: ['a', 'b', 'c'] })
    await run('create', () => client.createTableFromStream(name, arrow.tableToIPC(data, 'stream'), { signal }), () => `Created the test table ${name} (3 rows)`)
    try {
      await run(
        'list-again',
        async () => {
          const again = await listAll((o) => client.listAllTables({ ...o, signal }))
          if (!again.includes(name)) throw new AppError('internal', `The server accepted the table ${name} but does not list it`)
          return again
        },
        () => `The new table ${name} is listed`,
      )
    } finally {
      // Clean up even when the list failed; a failed drop is reported, not hidden.
      await run('drop', () => client.dropTable({ namespace: [], name }, { signal }), () => `Dropped the test table ${name}`).catch(() => undefined)
    }
    const failed = steps.find((s) => !s.ok)
    return failed ? finish(new AppError('internal', failed.message)) : finish()
  } catch (error) {
    return finish(error)
  }
}
