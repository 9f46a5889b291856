import { DataType, type Field, type RecordBatch, type Vector } from 'apache-arrow'
import { AppError, DIFF_LISTED_KEYS, DIFF_MAX_KEYS, type DiffKey, type DiffResult, type TableRef } from '../../contract'
import { fieldInfo } from '../arrow/format'
import type { NamespaceClient } from '../namespace/client'
import type { TableId } from '../namespace/path'
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

  const keyType = DataType.isInt(fromKey.type) ? 'integer' : 'text'
  const tally = new Tally()
  // Row addresses first (dir catalogs): a key at the same address in both versions is the same stored row, so
  // only the rows that moved are read whole. Too many moved rows (a compaction) and every row is read instead.
  const byAddress = client.scanRowAddresses ? await matchByAddress(client, id, from, to, key, keyType === 'integer', options.signal, progress) : null
  let readAllColumns = true
  if (byAddress && byAddress.moved.keys.length <= DIFF_LISTED_KEYS) {
    readAllColumns = false
    tally.addedKeys(byAddress.added)
    tally.deletedKeys(byAddress.deleted)
    tally.unchanged += byAddress.unchanged
    if (byAddress.moved.keys.length > 0) {
      const moved = byAddress.moved
      const olderRows = new Map<DiffKey, number>()
      for await (const batch of movedRows(client, id, from, moved.fromOffsets, moved.keys, key, columns, keyType === 'integer', options.signal)) {
        const { keys: ks, hashes } = rowsOf(batch, key, compared, from)
        for (let i = 0; i < ks.length; i++) olderRows.set(ks[i]!, hashes.get(i))
      }
      // Every moved key read once from each version, or the rows read were not the ones meant: say so, count nothing.
      const misread = () => new AppError('internal', `Reading the ${moved.keys.length} moved rows of v${from} and v${to} by position returned other rows`)
      if (olderRows.size !== moved.keys.length) throw misread()
      let matched = 0
      for await (const batch of movedRows(client, id, to, moved.toOffsets, moved.keys, key, columns, keyType === 'integer', options.signal)) {
        const { keys: ks, hashes } = rowsOf(batch, key, compared, to)
        for (let i = 0; i < ks.length; i++) {
          const old = olderRows.get(ks[i]!)
          if (old === undefined || old === MATCHED) throw misread()
          olderRows.set(ks[i]!, MATCHED)
          matched++
          if (old === hashes.get(i)) tally.unchanged++
          else tally.change(ks[i]!)
        }
      }
      if (matched !== moved.keys.length) throw misread()
      options.signal?.throwIfAborted()
    }
  } else {
    // Read from the start again (progress counts this pass alone).
    rowsRead = 0
    await matchByHash(tally, scan(from), scan(to), key, from, to)
  }
  const { added, deleted, changed } = tally
  return {
    table: { connectionId: table.connectionId, namespace: [...table.namespace], name: table.name },
    from,
    to,
    key,
    keyType,
    added: added.count,
    deleted: deleted.count,
    changed: changed.count,
    unchanged: tally.unchanged,
    keys: { added: added.keys, deleted: deleted.keys, changed: changed.keys },
    keysTruncated: Math.max(added.count, deleted.count, changed.count) > DIFF_LISTED_KEYS,
    compared,
    schema: { added: schemaDiff.added, removed: schemaDiff.removed, changed: schemaDiff.changed },
    readAllColumns,
    rows: { from: before.rowCount, to: after.rowCount },
    elapsedMs: Date.now() - started,
  }
}

/** Counts and the listed keys of one kind. */
class Kind {
  count = 0
  readonly keys: DiffKey[] = []
  add(key: DiffKey): void {
    this.count++
    if (this.keys.length < DIFF_LISTED_KEYS) this.keys.push(key)
  }
}

class Tally {
  readonly added = new Kind()
  readonly deleted = new Kind()
  readonly changed = new Kind()
  unchanged = 0
  change(key: DiffKey): void {
    this.changed.add(key)
  }
  addedKeys(keys: Iterable<DiffKey>): void {
    for (const k of keys) this.added.add(k)
  }
  deletedKeys(keys: Iterable<DiffKey>): void {
    for (const k of keys) this.deleted.add(k)
  }
}

/**
 * The moved rows of one version: taken by their offsets where the engine can (Lance reads those rows' pages
 * alone), else found by their keys (a filter over the whole table).
 */
function movedRows(client: NamespaceClient, id: TableId, version: number, offsets: number[], keys: DiffKey[], key: string, columns: string[], integers: boolean, signal: AbortSignal | undefined): AsyncIterable<RecordBatch> {
  if (client.takeRows) return client.takeRows(id, version, [...offsets].sort((a, b) => a - b), columns, { signal })
  return client.scan(id, { version, columns, keys: { column: key, values: keys, integers } }, { signal })
}

/** Every row of both versions reduced to key → hash of the compared columns (no shortcut). */
async function matchByHash(tally: Tally, older: AsyncIterable<{ keys: DiffKey[]; hashes: RowHashes }>, newer: AsyncIterable<{ keys: DiffKey[]; hashes: RowHashes }>, key: string, from: number, to: number): Promise<void> {
  // key → hash of the older version's row (MATCHED once the newer version has a row with that key).
  const before = new Map<DiffKey, number>()
  for await (const { keys, hashes } of older) {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!
      if (before.has(k)) throw duplicate(key, from, k)
      before.set(k, hashes.get(i))
    }
  }
  const addedSeen = new Set<DiffKey>()
  for await (const { keys, hashes } of newer) {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!
      const old = before.get(k)
      if (old === undefined) {
        if (addedSeen.has(k)) throw duplicate(key, to, k)
        addedSeen.add(k)
        tally.added.add(k)
        continue
      }
      if (old === MATCHED) throw duplicate(key, to, k)
      before.set(k, MATCHED)
      if (old === hashes.get(i)) tally.unchanged++
      else tally.change(k)
    }
  }
  for (const [k, hash] of before) if (hash !== MATCHED) tally.deleted.add(k)
}

/** Rows present in both versions under one key but at different addresses: their values must be read. */
interface Moved {
  keys: DiffKey[]
  /** Each moved row's position in the older version's scan (its offset for a take)… */
  fromOffsets: number[]
  /** …and in the newer version's. */
  toOffsets: number[]
}

/**
 * Both versions' keys with their row addresses: keys only in `to` are added, only in `from` deleted; a row at the
 * same address in both is unchanged; a key that moved (updated, or rewritten by a compaction) needs its values read.
 * The million rows of each version stay in typed arrays (addresses) and Arrow vectors (keys): only the rows on
 * one side alone are turned into keys.
 */
async function matchByAddress(
  client: NamespaceClient,
  id: TableId,
  from: number,
  to: number,
  key: string,
  integers: boolean,
  signal: AbortSignal | undefined,
  progress: (rows: number) => void,
): Promise<{ added: DiffKey[]; deleted: DiffKey[]; moved: Moved; unchanged: number } | null> {
  const rows = async function* (version: number): AsyncGenerator<{ keys: Vector; addresses: Float64Array }> {
    for await (const batch of client.scanRowAddresses!(id, version, key, { signal })) {
      signal?.throwIfAborted()
      const keys = batch.getChild(key)
      if (!keys) throw new AppError('internal', `The scan of version ${version} lacks the key column “${key}”`)
      if (keys.nullCount > 0) throw nullKeys(key, version)
      const column = batch.getChild('_rowaddr')
      if (!column) throw new AppError('internal', 'Lance returned no row addresses')
      yield { keys, addresses: addressesOf(column.toArray() as BigUint64Array) }
      progress(batch.numRows)
    }
  }
  // The older version whole: its addresses in one flat array (a plain scan yields rows in address order; checked),
  // its keys as the scan's vectors, read only at the rows that are not in the newer version.
  // The newer version's read starts now, Lance reading it while the older one's batches are taken in here.
  const newer = rows(to)
  const firstNewer = newer.next()
  firstNewer.catch(() => undefined)
  try {
    let olderAddresses = new Float64Array(1 << 16)
    const olderKeys: { keys: Vector; start: number }[] = []
    let olderRows = 0
    for await (const { keys, addresses } of rows(from)) {
      if (olderRows + addresses.length > olderAddresses.length) {
        const grown = new Float64Array(Math.max(olderAddresses.length * 2, olderRows + addresses.length))
        grown.set(olderAddresses.subarray(0, olderRows))
        olderAddresses = grown
      }
      // Rows out of address order: the merge cannot say; every row is read instead.
      if (!ascending(addresses, olderRows > 0 ? olderAddresses[olderRows - 1]! : -1)) return null
      olderAddresses.set(addresses, olderRows)
      olderKeys.push({ keys, start: olderRows })
      olderRows += addresses.length
    }
    const merge = new AddressMerge(olderAddresses.subarray(0, olderRows))
    for (let next = await firstNewer; !next.done; next = await newer.next()) if (!merge.add(next.value.keys, next.value.addresses)) return null
    const { olderOnly, newerOnly, unchanged } = merge.end()
    // Older-only rows' keys, from the vector each offset falls in (offsets ascend, so one forward walk).
    const gone = new Map<DiffKey, number>()
    let part = 0
    for (const offset of olderOnly) {
      while (part + 1 < olderKeys.length && olderKeys[part + 1]!.start <= offset) part++
      const { keys, start } = olderKeys[part]!
      const k = keyOf(keys.get(offset - start))
      if (gone.has(k)) throw duplicate(key, from, k)
      gone.set(k, offset)
    }
    const added: DiffKey[] = []
    const addedSeen = new Set<DiffKey>()
    const moved: Moved = { keys: [], fromOffsets: [], toOffsets: [] }
    for (const { key: k, offset } of newerOnly) {
      const older = gone.get(k)
      if (older === undefined) {
        if (addedSeen.has(k)) throw duplicate(key, to, k)
        addedSeen.add(k)
        added.push(k)
      } else if (older === MATCHED) throw duplicate(key, to, k)
      else {
        gone.set(k, MATCHED)
        moved.keys.push(k)
        moved.fromOffsets.push(older)
        moved.toOffsets.push(offset)
      }
    }
    const deleted: DiffKey[] = []
    for (const [k, older] of gone) if (older !== MATCHED) deleted.push(k)
    // An added key may repeat a key of an unchanged row: count the added keys' rows in the newer version.
    if (added.length > 0 && added.length <= DIFF_LISTED_KEYS) {
      const seen = new Set<DiffKey>()
      for await (const batch of client.scan(id, { version: to, columns: [key], keys: { column: key, values: added, integers } }, { signal })) {
        for (const k of rowsOf(batch, key, [], to).keys) {
          if (seen.has(k)) throw duplicate(key, to, k)
          seen.add(k)
        }
      }
    }
    return { added, deleted, moved, unchanged }
  } finally {
    // Stops the newer version's read when the merge ends early (rows out of order, a refusal, a cancel).
    await newer.return(undefined)
  }
}

/**
 * The newer version's rows walked against the older version's addresses (a merge): a row at an address both
 * versions have is the same stored row (Lance never rewrites a data file, and a fragment's id is never reused),
 * so it is unchanged, key and values alike; only the rows on one side alone are looked up by key. No map of a
 * million keys. Plain loops over typed arrays, outside any async function (the hot loop of a million-row diff).
 */
class AddressMerge {
  /** Positions in the older version of its rows at no address of the newer. */
  readonly olderOnly: number[] = []
  /** The newer version's rows at no address of the older: key and position. */
  readonly newerOnly: { key: DiffKey; offset: number }[] = []
  unchanged = 0
  private j = 0
  private previous = -1
  private position = 0

  constructor(private readonly older: Float64Array) {}

  /** One batch of the newer version, in scan order; false when its rows are out of address order. */
  add(keys: Vector, addresses: Float64Array): boolean {
    const { older, olderOnly } = this
    let { j, previous, unchanged } = this
    for (let i = 0; i < addresses.length; i++) {
      const address = addresses[i]!
      if (address <= previous) return false
      previous = address
      while (j < older.length && older[j]! < address) olderOnly.push(j++)
      if (j < older.length && older[j] === address) {
        unchanged++
        j++
      } else this.newerOnly.push({ key: keyOf(keys.get(i)), offset: this.position + i })
    }
    this.j = j
    this.previous = previous
    this.unchanged = unchanged
    this.position += addresses.length
    return true
  }

  end(): { olderOnly: number[]; newerOnly: { key: DiffKey; offset: number }[]; unchanged: number } {
    while (this.j < this.older.length) this.olderOnly.push(this.j++)
    return this
  }
}

/** uint64 row addresses as exact numbers (fragment < 2^21), read as 32-bit halves: no BigInt per row. */
function addressesOf(raw: BigUint64Array): Float64Array {
  const halves = new Uint32Array(raw.buffer, raw.byteOffset, raw.length * 2)
  const addresses = new Float64Array(raw.length)
  for (let i = 0; i < raw.length; i++) addresses[i] = halves[2 * i + 1]! * 2 ** 32 + halves[2 * i]!
  return addresses
}

/** Whether `addresses` strictly ascend, the first above `previous`. */
function ascending(addresses: Float64Array, previous: number): boolean {
  for (let i = 0; i < addresses.length; i++) {
    if (!(addresses[i]! > previous)) return false
    previous = addresses[i]!
  }
  return true
}

/** One key value as the diff holds it: 64-bit integers as numbers while exact, else as their digits. */
function keyOf(value: unknown): DiffKey {
  if (typeof value === 'bigint') return value <= MAX_EXACT && value >= MIN_EXACT ? Number(value) : value.toString()
  return value as DiffKey
}

function rowsOf(batch: RecordBatch, key: string, compared: string[], version: number): { keys: DiffKey[]; hashes: RowHashes } {
  const keyColumn = batch.getChild(key)
  if (!keyColumn) throw new AppError('internal', `The scan of version ${version} lacks the key column “${key}”`)
  const keys: DiffKey[] = new Array(batch.numRows)
  if (keyColumn.nullCount > 0) throw nullKeys(key, version)
  if (DataType.isInt(keyColumn.type)) {
    // The values as one typed array (no per-row Arrow lookups): the hot loop of a million-row diff.
    const values = keyColumn.toArray() as ArrayLike<number | bigint>
    if (values instanceof BigInt64Array || values instanceof BigUint64Array) {
      // 64-bit: read as 32-bit halves (no BigInt per row); exact while the high half stays within ±2^21.
      const halves = new Int32Array(values.buffer, values.byteOffset, values.length * 2)
      const unsigned = values instanceof BigUint64Array
      for (let i = 0; i < batch.numRows; i++) {
        const hi = halves[2 * i + 1]!
        if (hi >= -0x200000 && hi < 0x200000 && !(unsigned && hi < 0)) keys[i] = hi * 2 ** 32 + (halves[2 * i]! >>> 0)
        else keys[i] = values[i]!.toString()
      }
      return { keys, hashes: hashesOf(batch, compared) }
    }
    for (let i = 0; i < batch.numRows; i++) {
      const value = values[i]!
      // 64-bit integers come as bigint: as numbers while exact, else as their digits.
      keys[i] = typeof value === 'bigint' ? (value <= MAX_EXACT && value >= MIN_EXACT ? Number(value) : value.toString()) : value
    }
  } else {
    for (let i = 0; i < batch.numRows; i++) {
      const value: unknown = keyColumn.get(i)
      if (value === null || value === undefined) throw nullKeys(key, version)
      keys[i] = value as DiffKey
    }
  }
  return { keys, hashes: hashesOf(batch, compared) }
}

function hashesOf(batch: RecordBatch, compared: string[]): RowHashes {
  const hashes = new RowHashes(compared.length > 0 ? batch.numRows : 0)
  for (const name of compared) {
    const column = batch.getChild(name)
    if (column) hashes.add(column)
  }
  return hashes
}

const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER)
const MIN_EXACT = BigInt(Number.MIN_SAFE_INTEGER)

function nullKeys(key: string, version: number): AppError {
  return new AppError('invalid_input', `The key column “${key}” has empty (null) values in version ${version}: rows without a key cannot be matched`, { hint: 'Pick a column with a value in every row' })
}

function duplicate(key: string, version: number, value: DiffKey): AppError {
  return new AppError('invalid_input', `The key column “${key}” has duplicate values in version ${version} (${JSON.stringify(value)} appears more than once): rows cannot be matched by it`, {
    hint: 'Pick a column whose values are unique in both versions',
  })
}
