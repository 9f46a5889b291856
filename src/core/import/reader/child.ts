/**
 * A reader process: reads one file for the host (a preview, a sniff, or an import's reading side) and ends. It runs
 * the readers (our JS readers, polars, parquet-wasm) on bytes nobody vouched for, so that whatever they do — a native
 * panic that aborts, a balloon, a loop — ends this process alone; the host (src/core/import/reader/process.ts) watches
 * its memory and time and says in words what happened. It never opens a catalog.
 *
 * Started with `child_process.fork` (built as `out/main/importReader.js`; bundled from this file where the app runs
 * from its sources). Its first message is the task; it ends when the host disconnects.
 */
import { randomBytes } from 'node:crypto'
import { writeSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { Schema, Table, tableToIPC } from 'apache-arrow'
import { toAppError } from '../../errors'
import { makeNativeFolder } from '../native/polars'
import { openSource, sniffPath } from '../open'
import { inspectFile } from '../preview'
import { openChunks } from '../readSide'
import type { BatchSource } from '../source'
import { columnNotes } from './columns'
import { FRAME_HEADER, STDERR_MARK, type FileRequest, type HostMessage, type ReaderMessage, type ReaderTask } from './protocol'

function send(message: ReaderMessage): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) process.exit(0) // the host is gone: nobody to read for
    process.send(message, undefined, {}, () => resolve())
  })
}

// The host ends a reader by disconnecting (or kills it); a reader whose host went away ends too.
process.on('disconnect', () => process.exit(0))

watchOwnMemory()

process.once('message', (task: ReaderTask) => {
  run(task).catch(async (error: unknown) => {
    await send({ type: 'error', error: toAppError(error).toData() })
  })
})

async function run(task: ReaderTask): Promise<void> {
  switch (task.type) {
    case 'sniff': {
      const { format, size } = await sniffPath(task.path, task.fileName)
      await send({ type: 'sniffed', format, size })
      return
    }
    case 'inspect': {
      await tellFormat(task.file)
      const { file, sample } = await inspectFile({ ...openOptions(task.file), onOpened: (source) => tellSource(source, task.file.path) })
      await send({ type: 'inspected', file, sample })
      return
    }
    case 'import':
      return runImport(task)
  }
}

function openOptions(file: FileRequest) {
  return { path: file.path, fileName: file.fileName, datesAsText: file.datesAsText, sheet: file.sheet, layout: file.layout, columnTypes: file.columnTypes, vectorColumns: file.vectorColumns }
}

/** Sniffed again by the reader (64 KiB, cheap): a reader that dies while it opens the file is then named. */
async function tellFormat(file: FileRequest): Promise<void> {
  const { format } = await sniffPath(file.path, file.fileName)
  await send({ type: 'format', format })
}

async function tellSource(source: BatchSource, path: string): Promise<void> {
  await send({ type: 'source', format: source.format, size: source.size, rowCount: source.rowCount, columns: await columnNotes(source, path) })
}

/**
 * An import's reading side: open, tell the host what was found, read the first batch and plan the schema, wait for
 * the host's go (its mode checks; an append's column order), then send chunks as the host gives credit — one being
 * written there and one ready, while the next is read here.
 */
async function runImport(task: Extract<ReaderTask, { type: 'import' }>): Promise<void> {
  const data = listenForData()
  const hostMessages = new HostInbox()
  const options = openOptions(task.file)
  await tellFormat(task.file)
  const source = await openSource(options.path, options)
  await tellSource(source, options.path)
  const heartbeat = setInterval(() => void send({ type: 'progress', bytesRead: source.bytesRead() }), 1000)
  heartbeat.unref()
  const reader = await openChunks(source, { mode: task.mode, vectorColumns: options.vectorColumns, limits: task.limits, ipc: task.ipc, encode: true })
  await send({ type: 'opened', schema: tableToIPC(new Table(reader.schema as Schema), 'stream') })
  const { appendColumns } = await hostMessages.go()
  const socket = await data.connected
  let chunks = 0
  // The chunk being handed over: the next one is read meanwhile (waiting for the host to take all 32 MiB before
  // reading on cost ~140 ms a chunk, a fifth of the reading).
  let sending: Promise<void> | null = null
  for await (const chunk of reader.chunks(appendColumns)) {
    await hostMessages.credit()
    const bytes = chunk.kind === 'raw' ? chunk.frame() : chunk.kind === 'ipc' ? chunk.bytes : null
    if (!bytes) throw new Error('a decoded chunk was not encoded') // encode: true above
    if (sending) await sending
    await send({ type: 'chunk', kind: chunk.kind === 'raw' ? 'raw' : 'ipc', rows: chunk.rows, length: bytes.byteLength, bytesRead: source.bytesRead() })
    // A raw chunk's buffers serve later batches once the host has them.
    sending = writeFrame(socket, bytes).then(() => (chunk.kind === 'raw' ? chunk.release() : undefined))
    sending.catch(() => undefined) // awaited before the next chunk or the end
    chunks++
  }
  if (sending) await sending
  clearInterval(heartbeat)
  await send({ type: 'done', chunks, bytesRead: source.bytesRead() })
  await reader.close()
  data.server.close()
}

/** The host's go and credits, as they come. */
class HostInbox {
  private credits = 0
  private goMessage: Extract<HostMessage, { type: 'go' }> | null = null
  private wake: (() => void) | null = null

  constructor() {
    process.on('message', (message: HostMessage) => {
      if (message.type === 'more') this.credits++
      else if (message.type === 'go') this.goMessage = message
      const wake = this.wake
      this.wake = null
      wake?.()
    })
  }

  async go(): Promise<Extract<HostMessage, { type: 'go' }>> {
    while (!this.goMessage) await new Promise<void>((resolve) => (this.wake = resolve))
    return this.goMessage
  }

  async credit(): Promise<void> {
    while (this.credits === 0) await new Promise<void>((resolve) => (this.wake = resolve))
    this.credits--
  }
}

/**
 * A socket the host connects to for the chunks' bytes: in a folder of our own in the temp folder (named with this
 * process's id, so the host sweeps it when this process ends however it ends), a named pipe on Windows.
 */
function listenForData(): { connected: Promise<Socket>; server: Server } {
  let accept!: (socket: Socket) => void
  const connected = new Promise<Socket>((resolve) => (accept = resolve))
  const server = createServer({ noDelay: true }, (socket) => {
    server.close() // one host, one connection
    socket.on('error', () => process.exit(0)) // the host stopped reading: it has ended this import
    accept(socket)
  })
  void (async () => {
    const address =
      process.platform === 'win32' ? `\\\\.\\pipe\\lcb-reader-${process.pid}-${randomBytes(6).toString('hex')}` : join(await makeNativeFolder(), 'data.sock')
    server.listen(address, () => void send({ type: 'data', address }))
  })()
  return { connected, server }
}

function writeFrame(socket: Socket, bytes: Uint8Array): Promise<void> {
  const header = Buffer.alloc(FRAME_HEADER)
  header.writeBigUInt64LE(BigInt(bytes.byteLength))
  socket.write(header)
  return new Promise((resolve, reject) => socket.write(bytes, (error) => (error ? reject(error) : resolve())))
}

/**
 * Where the host cannot read this process's memory from outside (`/proc` is Linux's), it asks the reader to watch
 * itself (`LCB_READER_WATCH=<bytes>,<ms>`): a thread samples the resident memory and, over the ceiling, says so on
 * stderr and kills the process — a thread still runs while the main one is stuck in a read or in native code.
 */
function watchOwnMemory(): void {
  const watch = /^(\d+),(\d+)$/.exec(process.env.LCB_READER_WATCH ?? '')
  if (!watch) return
  const source = `
    const { workerData } = require('node:worker_threads')
    const { writeSync } = require('node:fs')
    const check = () => {
      const rss = process.memoryUsage.rss()
      if (rss <= workerData.limit) return
      writeSync(2, workerData.mark + ' memory ' + rss + ' over ' + workerData.limit + '\\n')
      process.kill(process.pid, 'SIGKILL')
    }
    check()
    setInterval(check, workerData.interval)
  `
  try {
    const worker = new Worker(source, { eval: true, workerData: { limit: Number(watch[1]), interval: Number(watch[2]), mark: STDERR_MARK } })
    worker.unref()
  } catch (error) {
    writeSync(2, `${STDERR_MARK} the memory watch did not start: ${String(error)}\n`)
  }
}
