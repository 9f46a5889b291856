/**
 * Where bare lancedb's import time goes (`npx tsx tests/bench/import-costs.ts [rows]`, default 100k; uses
 * the cached file of bench/import.ts). In one process, alternating, each step timed alone:
 *   read    — the Arrow file's batches through apache-arrow's reader;
 *   encode  — the IPC file encoding lancedb's `add` does for every call (RecordBatchFileWriter);
 *   add×N   — the native add of each pre-encoded 10k-row chunk: one Lance commit per chunk;
 *   add×1   — the native add of all rows in one buffer: one commit (memory: the whole file);
 *   fsync   — of the table afterwards; dd — the same bytes with `dd conv=fsync`.
 * Prints a markdown table; no targets (it explains the import section's figures).
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { RecordBatchFileWriter, RecordBatchReader, Table, type AsyncRecordBatchFileReader, type RecordBatch } from 'apache-arrow'
import { benchFile } from './import'

const ROOT = resolve(__dirname, '../..')

function now(): number {
  return Number(process.hrtime.bigint()) / 1e6
}

function encode(batches: RecordBatch[]): Buffer {
  const bytes = RecordBatchFileWriter.writeAll(new Table(batches[0]!.schema, batches)).toUint8Array(true)
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

function fsyncTree(root: string): void {
  execFileSync('sync', ['-f', root])
  execFileSync('sync')
}

async function main(): Promise<void> {
  const rows = Number(process.argv[2] ?? 100_000)
  const dir = resolve(ROOT, process.env.BENCH_DIR ?? '.tmp/bench')
  const file = benchFile(dir, rows)
  const bytes = statSync(file).size
  const lancedb = await import('@lancedb/lancedb')
  const out: string[][] = []
  for (let rep = 0; rep < 2; rep++) {
    execFileSync('sync')
    let t = now()
    const handle = await open(file, 'r')
    const reader = (await RecordBatchReader.from(handle)) as unknown as AsyncRecordBatchFileReader
    await reader.open()
    const batches: RecordBatch[] = []
    for (let i = 0; i < reader.numRecordBatches; i++) batches.push((await reader.readRecordBatch(i))!)
    await handle.close()
    const readMs = now() - t
    t = now()
    const chunks = batches.map((b) => encode([b]))
    const encodeMs = now() - t
    const results: Record<string, number> = {}
    for (const mode of rep % 2 === 0 ? ['many', 'one'] : ['one', 'many']) {
      const root = join(dir, `costs_${mode}`)
      rmSync(root, { recursive: true, force: true })
      mkdirSync(root, { recursive: true })
      const db = await lancedb.connect(root)
      const first = await db.createTable('t', new Table(batches[0]!.schema, [batches[0]!.slice(0, 1)]))
      const inner = (first as unknown as { inner: { add(buf: Buffer, mode: string): Promise<unknown> } }).inner
      execFileSync('sync')
      t = now()
      if (mode === 'many') for (const c of chunks) await inner.add(c, 'append')
      else await inner.add(encode(batches), 'append')
      results[mode] = now() - t
      t = now()
      fsyncTree(root)
      results[`${mode}Fsync`] = now() - t
      results[`${mode}Versions`] = (await first.listVersions()).length
      results[`${mode}Files`] = readdirSync(join(root, 't.lance', 'data')).length
      rmSync(root, { recursive: true, force: true })
    }
    const ddRoot = join(dir, 'costs_dd')
    mkdirSync(ddRoot, { recursive: true })
    t = now()
    execFileSync('dd', [`if=${file}`, `of=${join(ddRoot, 'copy')}`, 'bs=4M', 'conv=fsync'], { stdio: 'ignore' })
    const ddMs = now() - t
    rmSync(ddRoot, { recursive: true, force: true })
    const f = (ms: number) => (ms / 1000).toFixed(2)
    out.push([String(rep), f(readMs), f(encodeMs), `${f(results.many!)} + ${f(results.manyFsync!)} (${results.manyVersions} versions, ${results.manyFiles} files)`, `${f(results.one!)} + ${f(results.oneFsync!)} (${results.oneVersions} versions, ${results.oneFiles} files)`, f(ddMs)])
  }
  console.log(`${rows.toLocaleString('en')} rows, ${(bytes / 1e6).toFixed(0)} MB; load average ${execFileSync('cat', ['/proc/loadavg']).toString().trim()}`)
  console.log('| rep | read s | encode s | native add × chunks + fsync s | native add × 1 + fsync s | dd s |')
  console.log('|---|---|---|---|---|---|')
  for (const r of out) console.log(`| ${r.join(' | ')} |`)
}

void main()
