import { stat } from 'node:fs/promises'
import { tableFromIPC, type Schema } from 'apache-arrow'
import { AppError, type ImportMode } from '../../../contract'
import type { ChunkLimits } from '../chunks'
import { openSource, sniffPath } from '../open'
import { inspectFile, type Inspection } from '../preview'
import { openChunks, type Chunk, type ChunkReader, type SourceInfo } from '../readSide'
import type { ImportFormat } from '../sniff'
import { defaultReaderEntry } from './entry'
import { readerLimits, type ReaderLimitOptions } from './limits'
import { ReaderProcess } from './process'
import type { FileRequest, ReaderTask } from './protocol'

export interface ReaderOptions extends ReaderLimitOptions {
  /**
   * The reader process's script (built JavaScript), or how to get it; default {@link defaultReaderEntry}: the built
   * `importReader.js` beside the host's code, else `child.ts` bundled from the sources.
   */
  entry?: string | (() => Promise<string>)
  /**
   * Read files in the host's own process, as before readers had processes of their own (`LCB_IMPORT_READER=inline`):
   * only to compare the two (benchmarks). A reader that aborts then takes the host with it.
   */
  inProcess?: boolean
  /** Reader processes previewing at once (`import/preview`, `import/sample`, `import/start`'s look); the rest wait. Default 2. */
  maxPreviews?: number
  /**
   * Keep one reader process started ahead, idle, once a file has been read (its start-up, ~0.3–0.5 s, is then not
   * waited for by the next preview or import); ended after {@link SPARE_IDLE_MS} unused. Default on;
   * `LCB_IMPORT_READER_SPARE=0` turns it off.
   */
  spare?: boolean
}

/** An idle spare reader is ended after this long unused (it holds ~70 MiB). */
export const SPARE_IDLE_MS = 60_000

/** An import's reading side in a reader process, as the writer (writeChunks) sees it. */
export interface ImportRead extends SourceInfo {
  /** The first batch read and the schema planned (the reader waits for the writer's go before it reads on). */
  open(): Promise<ChunkReader>
  /** Stop it (a cancel); the writer's own cleanup still runs. */
  cancel(): void
  close(): Promise<void>
}

export interface ImportReadSpec extends FileRequest {
  mode: ImportMode
  limits: ChunkLimits
  /** The target takes Arrow IPC bytes. */
  ipc: boolean
  signal?: AbortSignal
}

/** Previews kept: the sheet asks for the preview and the sample at once, and again as the name or mode changes. */
const KEPT_INSPECTIONS = 8
const KEPT_FOR_MS = 5 * 60 * 1000

/**
 * The host's readers: every file is read by a reader process (one per task) with a memory ceiling and a time budget,
 * so a reader that panics, aborts, balloons or hangs ends alone and says why in words. Previews of the same file
 * (unchanged on disk) with the same reading choices are read once: the preview and the sample share one reader, and
 * a preview asked again for another name or mode reads nothing.
 */
export class ImportReaders {
  private readonly inspections = new Map<string, { at: number; result: Promise<Inspection & { schema: Schema }> }>()
  private readonly sniffs = new Map<string, { format: ImportFormat; size: number }>()
  private readonly live = new Set<ReaderProcess>()
  private readonly queue: (() => void)[] = []
  private previewing = 0
  private entry: Promise<string> | null = null
  private closed = false
  /** The warm reader, with what it was started with (a reader started otherwise is not handed out). */
  private spare: { reader: ReaderProcess; key: string; timer: NodeJS.Timeout } | null = null

  constructor(private readonly options: ReaderOptions = {}) {}

  private get inProcess(): boolean {
    return this.options.inProcess ?? process.env.LCB_IMPORT_READER === 'inline'
  }

  /** The file side of a preview: its format, schema, candidates, the first rows. */
  async inspect(file: FileRequest): Promise<Inspection & { schema: Schema }> {
    const stamp = await fileStamp(file.path)
    const key = JSON.stringify([stamp, file.path, file.fileName, file.vectorColumns ?? null, file.datesAsText ?? false, file.sheet ?? null, file.layout ?? null, file.columnTypes ?? null])
    const now = Date.now()
    for (const [k, v] of this.inspections) if (now - v.at > KEPT_FOR_MS) this.inspections.delete(k)
    const kept = this.inspections.get(key)
    if (kept) return kept.result
    const result = this.readInspection(file)
    const entry = { at: now, result }
    this.inspections.set(key, entry)
    while (this.inspections.size > KEPT_INSPECTIONS) this.inspections.delete(this.inspections.keys().next().value!)
    result.then(
      (r) => {
        this.sniffs.set(JSON.stringify([stamp, file.path]), { format: r.file.format as ImportFormat, size: r.file.bytes })
        while (this.sniffs.size > KEPT_INSPECTIONS) this.sniffs.delete(this.sniffs.keys().next().value!)
      },
      // Only answers are kept: a failed read is tried again when asked again (a preview asked at the same time shares it).
      () => {
        if (this.inspections.get(key) === entry) this.inspections.delete(key)
      },
    )
    return result
  }

  private async readInspection(file: FileRequest): Promise<Inspection & { schema: Schema }> {
    if (this.inProcess) {
      const inspection = await inspectFile(file)
      return { ...inspection, schema: tableFromIPC(inspection.sample).schema }
    }
    return this.previewSlot(async () => {
      const reader = await this.start({ type: 'inspect', file }, { fileName: file.fileName, doing: 'preview' }, 'total')
      try {
        const { file: info, sample } = await reader.expect('inspected')
        // The written schema, from our reader's own encoding of the sample (the file itself is never decoded here).
        return { file: info, sample, schema: tableFromIPC(sample).schema }
      } finally {
        await reader.close()
      }
    })
  }

  /** The file's format and size (what `import/start` checks before it queues a job). */
  async sniff(path: string, fileName: string): Promise<{ format: ImportFormat; size: number }> {
    const known = this.sniffs.get(JSON.stringify([await fileStamp(path), path]))
    if (known) return known
    if (this.inProcess) return sniffPath(path, fileName)
    return this.previewSlot(async () => {
      const reader = await this.start({ type: 'sniff', path, fileName }, { fileName, doing: 'sniff' }, 'total')
      try {
        const { format, size } = await reader.expect('sniffed')
        return { format, size }
      } finally {
        await reader.close()
      }
    })
  }

  /**
   * Open an import's reading side; resolves once the file is open (its format, size and row count known), before its
   * first batch is read.
   */
  async openImport(spec: ImportReadSpec): Promise<ImportRead> {
    if (this.inProcess) return openInProcess(spec)
    const file: FileRequest = { path: spec.path, fileName: spec.fileName, datesAsText: spec.datesAsText, sheet: spec.sheet, layout: spec.layout, columnTypes: spec.columnTypes, vectorColumns: spec.vectorColumns }
    const reader = await this.start({ type: 'import', file, mode: spec.mode, limits: spec.limits, ipc: spec.ipc }, { fileName: spec.fileName, doing: 'import' }, 'idle')
    const cancel = () => reader.kill({ kind: 'cancelled' })
    spec.signal?.addEventListener('abort', cancel, { once: true })
    const close = async () => {
      spec.signal?.removeEventListener('abort', cancel)
      await reader.close()
    }
    try {
      if (spec.signal?.aborted) cancel()
      const source = await reader.expect('source')
      return {
        format: source.format,
        size: source.size,
        rowCount: source.rowCount,
        bytesRead: () => reader.bytesRead,
        cancel,
        close,
        open: async () => {
          const { schema: bytes } = await reader.expect('opened')
          const schema = tableFromIPC(bytes).schema
          return {
            schema,
            close,
            async *chunks(appendColumns) {
              reader.send({ type: 'go', appendColumns })
              let chunks = 0
              for (;;) {
                // One credit: the reader reads the next chunk while the one before is written.
                reader.send({ type: 'more' })
                const message = await reader.expect('chunk', 'done')
                if (message.type === 'done') {
                  if (message.chunks !== chunks) throw new AppError('internal', `The reader sent ${chunks} chunks and said ${message.chunks}`)
                  return
                }
                const bytes = await reader.frame(message.length)
                chunks++
                const release = () => reader.recycle(bytes)
                const chunk: Chunk = message.kind === 'raw' ? { kind: 'raw', rows: message.rows, frame: () => bytes, release } : { kind: 'ipc', bytes, rows: message.rows, release }
                yield chunk
              }
            },
          }
        },
      }
    } catch (error) {
      await close()
      throw error
    }
  }

  /** End every reader (the host is closing). */
  async close(): Promise<void> {
    this.closed = true
    this.dropSpare()
    for (const reader of this.live) reader.kill({ kind: 'cancelled' })
    await Promise.all([...this.live].map((r) => r.done))
  }

  private async start(task: ReaderTask, context: { fileName: string; doing: 'preview' | 'import' | 'sniff' }, budget: 'total' | 'idle'): Promise<ReaderProcess> {
    if (this.closed) throw new AppError('unavailable', 'The app is closing')
    const entry = await this.resolveEntry()
    const limits = readerLimits(this.options)
    const key = spawnKey(entry, limits)
    const spare = this.spare?.key === key && this.spare.reader.running ? this.spare.reader : null
    this.dropSpare(spare)
    const reader = spare ?? this.spawn(entry, limits)
    reader.begin(task, context, budget)
    // The next reader is started ahead once this one has ended (not beside it: it would take its CPU).
    void reader.done.then(() => this.makeSpare())
    return reader
  }

  private async resolveEntry(): Promise<string> {
    this.entry ??= resolveEntry(this.options.entry)
    return this.entry.catch((error: unknown) => {
      this.entry = null
      throw error
    })
  }

  private spawn(entry: string, limits: ReturnType<typeof readerLimits>): ReaderProcess {
    const reader = new ReaderProcess(entry, limits)
    this.live.add(reader)
    void reader.done.then(() => this.live.delete(reader))
    return reader
  }

  private makeSpare(): void {
    const wanted = this.options.spare ?? process.env.LCB_IMPORT_READER_SPARE !== '0'
    if (!wanted || this.closed || this.inProcess || this.spare || !this.entry) return
    void this.resolveEntry().then(
      (entry) => {
        if (this.closed || this.spare) return
        const limits = readerLimits(this.options)
        const reader = this.spawn(entry, limits)
        const timer = setTimeout(() => this.dropSpare(), SPARE_IDLE_MS)
        timer.unref()
        this.spare = { reader, key: spawnKey(entry, limits), timer }
        // A spare that ends by itself (killed from outside) is simply not there any more.
        void reader.done.then(() => {
          if (this.spare?.reader === reader) this.dropSpare()
        })
      },
      () => undefined,
    )
  }

  /** Forget the spare; end it unless it is `keep` (handed a task). */
  private dropSpare(keep: ReaderProcess | null = null): void {
    const spare = this.spare
    if (!spare) return
    this.spare = null
    clearTimeout(spare.timer)
    if (spare.reader !== keep) void spare.reader.close()
  }

  /** At most `maxPreviews` preview readers at once. */
  private async previewSlot<T>(work: () => Promise<T>): Promise<T> {
    const max = Math.max(1, this.options.maxPreviews ?? 2)
    if (this.previewing >= max) await new Promise<void>((resolve) => this.queue.push(resolve))
    this.previewing++
    try {
      return await work()
    } finally {
      this.previewing--
      this.queue.shift()?.()
    }
  }
}

/**
 * What a reader is started with: a spare started otherwise (other ceilings, another script, other switches in the
 * environment it inherited: LCB_IMPORT_NATIVE, polars' settings) is not handed a task.
 */
function spawnKey(entry: string, limits: ReturnType<typeof readerLimits>): string {
  const env = Object.entries(process.env).filter(([name]) => name.startsWith('LCB_') || name.startsWith('POLARS_') || name.startsWith('RUST_'))
  return JSON.stringify([entry, limits, env.sort()])
}

function resolveEntry(entry: ReaderOptions['entry']): Promise<string> {
  if (typeof entry === 'string') return Promise.resolve(entry)
  if (typeof entry === 'function') return entry()
  return defaultReaderEntry()
}

/** What tells a file's content apart without reading it: a file replaced or changed is read again. */
async function fileStamp(path: string): Promise<[number, number, number] | null> {
  try {
    const info = await stat(path)
    return [info.size, info.mtimeMs, info.ino]
  } catch {
    return null // the reader says what is wrong with it
  }
}

/** The reading side in this process (LCB_IMPORT_READER=inline). */
async function openInProcess(spec: ImportReadSpec): Promise<ImportRead> {
  const source = await openSource(spec.path, { fileName: spec.fileName, signal: spec.signal, datesAsText: spec.datesAsText, columnTypes: spec.columnTypes, sheet: spec.sheet, layout: spec.layout })
  const close = () => source.close().catch(() => undefined)
  return {
    format: source.format,
    size: source.size,
    rowCount: source.rowCount,
    bytesRead: () => source.bytesRead(),
    cancel: () => undefined,
    close,
    open: () => openChunks(source, { mode: spec.mode, vectorColumns: spec.vectorColumns, limits: spec.limits, ipc: spec.ipc, encode: spec.ipc }),
  }
}
