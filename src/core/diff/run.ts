import { DataType, type Field, type RecordBatch } from 'apache-arrow'
import { AppError, DIFF_LISTED_KEYS, DIFF_MAX_KEYS, type DiffKey, type DiffResult, type TableRef } from '../../contract'
import { fieldInfo } from '../arrow/format'
import type { NamespaceClient } from '../namespace/client'
import { compareVersions } from '../namespace/versions'
import { RowHashes } from './hash'

export interface DiffOptions {
  signal?: AbortSignal
  onProgress?: (progress: { rows: number; totalRows: number | null }) => void
  progressIntervalMs?: number
}

/** A key that stands for a row already matched in the newer version (hashes are never negative). */
const MATCHED = -1

/**
 * Compare versions `from` and `to` of a table, rows matched by `key`: one streaming scan of each version reading
 * the key and the columns both versions have alike, each row reduced to its key and a 53-bit hash of those
 * columns. Memory: one Map entry per key of `from` (plus the keys added in `to`), refused past
 * {@link DIFF_MAX_KEYS}. A key with nulls or duplicates is refused in words, since rows could not be matched.
 */
export async function diffVersions(client: NamespaceClient, table: TableRef, from: number, to: number, key: string, options: DiffOptions = {}): Promise<DiffResult> {
  const started = Date.now()
  if (from === to) throw new AppError('invalid_input', 'Pick two different versions to compare')
  const id = { namespace: table.namespace, name: table.name }
  const [before, after] = await Promise.all([client.describeTable(id, { version: from, signal: options.signal }), client.describeTable(id, { version: to, signal: options.signal })])
  const keyField = (schema: { fields: Field[] }, version: number) => {
    const field = schema.fields.find((f) => f.name === key)
    if (!field) throw new AppError('invalid_input', `Version ${version} has no column “${key}”`, { hint: 'Pick a key column both versions have' })
    if (!DataType.isInt(field.type) && !DataType.isUtf8(field.type) && !DataType.isLargeUtf8(field.type))
      throw new AppError('invalid_input', `The key column “${key}” is ${fieldInfo(field).type}: rows can be matched by an integer or text column only`)
    return field
  }
  const fromKey = keyField(before.schema, from)
  const toKey = keyField(after.schema, to)
  if (fieldInfo(fromKey).type !== fieldInfo(toKey).type) throw new AppError('invalid_input', `The key column “${key}” changed type between v${from} and v${to}`, { hint: 'Pick a key column whose type stayed the same' })
  for (const [version, rows] of [[from, before.rowCount], [to, after.rowCount]] as const)
    if (rows > DIFF_MAX_KEYS) throw new AppError('invalid_input', `Version ${version} has ${rows} rows: comparing is limited to ${DIFF_MAX_KEYS} rows per version (every key is held in memory)`)

  const schemaDiff = compareVersions({ version: from, rowCount: before.rowCount, schema: before.schema.fields.map(fieldInfo) }, { version: to, rowCount: after.rowCount, schema: after.schema.fields.map(fieldInfo) })
  const changedTypes = new Set(schemaDiff.changed.map((c) => c.name))
  const newer = new Set(after.schema.fields.map((f) => f.name))
  // Columns to compare: those both versions have with the same type (an added or dropped column changes no row's match).
  const compared = before.schema.fields.map((f) => f.name).filter((name) => name !== key && newer.has(name) && !changedTypes.has(name))
  const columns = [key, ...compared]

  const totalRows = before.rowCount + after.rowCount
  let rowsRead = 0
  let lastEmit = 0
  const interval = options.progressIntervalMs ?? 100
  const progress = (n: number) => {
    rowsRead += n
    const now = Date.now()
    if (options.onProgress && now - lastEmit >= interval) {
      lastEmit = now
      options.onProgress({ rows: rowsRead, totalRows })
    }
  }

  const scan = async function* (version: number): AsyncGenerator<{ keys: DiffKey[]; hashes: RowHashes }> {
    for await (const batch of client.scan(id, { version, columns }, { signal: options.signal })) {
      options.signal?.throwIfAborted()
      yield rowsOf(batch, key, compared, version)
      progress(batch.numRows)
    }
    options.signal?.throwIfAborted()
  }

  // key → hash of the older version's row (MATCHED once the newer version has a row with that key).
  const older = new Map<DiffKey, number>()
  for await (const { keys, hashes } of scan(from)) {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!
      if (older.has(k)) throw duplicate(key, from, k)
      older.set(k, hashes.get(i))
    }
  }
  const added: DiffKey[] = []
  const addedSeen = new Set<DiffKey>()
  const changed: DiffKey[] = []
  let addedCount = 0
  let changedCount = 0
  let unchanged = 0
  for await (const { keys, hashes } of scan(to)) {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!
      const old = older.get(k)
      if (old === undefined) {
        if (addedSeen.has(k)) throw duplicate(key, to, k)
        addedSeen.add(k)
        addedCount++
        if (added.length < DIFF_LISTED_KEYS) added.push(k)
        continue
      }
      if (old === MATCHED) throw duplicate(key, to, k)
      older.set(k, MATCHED)
      if (old === hashes.get(i)) unchanged++
      else {
        changedCount++
        if (changed.length < DIFF_LISTED_KEYS) changed.push(k)
      }
    }
  }
  const deleted: DiffKey[] = []
  let deletedCount = 0
  for (const [k, hash] of older) {
    if (hash === MATCHED) continue
    deletedCount++
    if (deleted.length < DIFF_LISTED_KEYS) deleted.push(k)
  }
  return {
    table: { connectionId: table.connectionId, namespace: [...table.namespace], name: table.name },
    from,
    to,
    key,
    keyType: DataType.isInt(fromKey.type) ? 'integer' : 'text',
    added: addedCount,
    deleted: deletedCount,
    changed: changedCount,
    unchanged,
    keys: { added, deleted, changed },
    keysTruncated: Math.max(addedCount, deletedCount, changedCount) > DIFF_LISTED_KEYS,
    compared,
    schema: { added: schemaDiff.added, removed: schemaDiff.removed, changed: schemaDiff.changed },
    readAllColumns: true,
    rows: { from: before.rowCount, to: after.rowCount },
    elapsedMs: Date.now() - started,
  }
}

function rowsOf(batch: RecordBatch, key: string, compared: string[], version: number): { keys: DiffKey[]; hashes: RowHashes } {
  const keyColumn = batch.getChild(key)
  if (!keyColumn) throw new AppError('internal', `The scan of version ${version} lacks the key column “${key}”`)
  const keys: DiffKey[] = new Array(batch.numRows)
  for (let i = 0; i < batch.numRows; i++) {
    const value: unknown = keyColumn.get(i)
    if (value === null || value === undefined)
      throw new AppError('invalid_input', `The key column “${key}” has empty (null) values in version ${version}: rows without a key cannot be matched`, { hint: 'Pick a column with a value in every row' })
    // 64-bit integers come as bigint: as numbers while exact, else as their digits.
    keys[i] = typeof value === 'bigint' ? (value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString()) : (value as DiffKey)
  }
  const hashes = new RowHashes(batch.numRows)
  for (const name of compared) {
    const column = batch.getChild(name)
    if (column) hashes.add(column)
  }
  return { keys, hashes }
}

function duplicate(key: string, version: number, value: DiffKey): AppError {
  return new AppError('invalid_input', `The key column “${key}” has duplicate values in version ${version} (${JSON.stringify(value)} appears more than once): rows cannot be matched by it`, {
    hint: 'Pick a column whose values are unique in both versions',
  })
}
