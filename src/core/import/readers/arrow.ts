import { open } from 'node:fs/promises'
import { AppError } from '../../../contract'
import type { RecordBatch } from 'apache-arrow'
import { openIpc, type IpcReader, type RawBatch } from '../../arrow/ipc/reader'
import type { BatchSource, OpenOptions } from '../source'
import { batchProblem } from '../validate'
import { corrupt, throwIfAborted } from './errors'
import { guardFlatbuffers } from './flatbuffer-guard'

guardFlatbuffers()

/**
 * Arrow IPC file: random access through the footer, batch by batch; the row count comes from the
 * batches' message headers, not their bodies. Read by our own message reader (core/arrow/ipc), so
 * view types, LargeList, ListView and LZ4/ZSTD buffer compression import too, converted losslessly
 * to the plain types Lance stores (listed in `conversions`).
 */
export async function openArrowFile(path: string, options: OpenOptions): Promise<BatchSource> {
  return fromReader(path, 'file', options)
}

const EOS = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0])

/**
 * Arrow IPC stream. Every writer we know ends a stream with the end-of-stream marker; without it
 * a file cut at a batch boundary would import as a silently shorter table, so a missing marker is
 * refused as truncation. Concatenated streams are read in turn and must agree.
 */
export async function openArrowStream(path: string, options: OpenOptions): Promise<BatchSource> {
  const { fileName } = options
  const handle = await open(path, 'r')
  try {
    const size = (await handle.stat()).size
    const tail = Buffer.alloc(Math.min(8, size))
    await handle.read(tail, 0, tail.length, size - tail.length)
    const legacyEos = tail.length >= 4 && tail.readUInt32LE(tail.length - 4) === 0
    if (!tail.equals(EOS) && !legacyEos) {
      throw new AppError('corrupt', `${fileName} is an incomplete Arrow stream (it lacks the end-of-stream marker)`, {
        hint: 'The file was probably truncated while it was written or copied; export it again',
      })
    }
  } finally {
    await handle.close()
  }
  return fromReader(path, 'stream', options)
}

async function fromReader(path: string, kind: 'file' | 'stream', options: OpenOptions): Promise<BatchSource> {
  const { fileName } = options
  const what = kind === 'file' ? 'Arrow IPC file' : 'Arrow IPC stream'
  let reader: IpcReader
  try {
    reader = await openIpc(path, kind)
  } catch (error) {
    if (kind === 'file' && error instanceof Error && /footer is missing/.test(error.message)) {
      throw new AppError('corrupt', `${fileName} is an incomplete Arrow file (its footer is missing)`, {
        hint: 'The file was probably truncated while it was written or copied; export it again',
      })
    }
    throw corrupt(fileName, what, error)
  }
  if (reader.unsupported.length > 0) {
    await reader.close()
    const list = reader.unsupported.map((u) => `column \`${u.column}\` of type ${u.type}`)
    throw new AppError('unsupported', `Lance cannot store ${list.join(', ')}`, {
      hint: 'No lossless conversion exists; convert or drop that column, then import again',
    })
  }
  const pass = reader.passThrough
  return {
    passThrough: pass && {
      frame: (messages) => pass.frame(messages),
      release: (messages) => pass.release(messages),
      batches: (limits) => checkedBatches(pass.batches(limits), reader, fileName, what, options.signal),
    },
    format: kind === 'file' ? 'arrow-file' : 'arrow-stream',
    schema: reader.schema,
    size: reader.size,
    rowCount: reader.rowCount,
    conversions: reader.conversions,
    bytesRead: () => reader.position(),
    batches: () => checkedBatches(reader.batches(), reader, fileName, what, options.signal),
    close: () => reader.close(),
  }
}

/**
 * The batches of `it`, each checked ({@link batchProblem}; raw pass-through batches go as they are) and
 * numbered in errors; a read failure is "corrupt". Closes `reader` when done, failed or abandoned.
 */
async function* checkedBatches<T extends RecordBatch | RawBatch>(it: AsyncGenerator<T>, reader: IpcReader, fileName: string, what: string, signal: AbortSignal | undefined): AsyncGenerator<T> {
  let index = 0
  try {
    for (;;) {
      throwIfAborted(signal)
      let step: IteratorResult<T>
      try {
        step = await it.next()
      } catch (error) {
        throw corrupt(fileName, what, error)
      }
      if (step.done) return
      index++
      const batch = step.value
      const problem = 'raw' in batch ? null : batchProblem(batch)
      if (problem) throw corrupt(fileName, what, new Error(`record batch ${index}: ${problem}`))
      yield batch
    }
  } finally {
    await it.return(undefined).catch(() => undefined)
    await reader.close()
  }
}
