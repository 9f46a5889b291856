import type { WriteStream } from 'node:fs'

/** Writes to a file stream with backpressure: `write` resolves when the stream can take more. */
export class FileSink {
  bytes = 0

  constructor(private readonly stream: WriteStream) {}

  async write(chunk: Uint8Array | string): Promise<void> {
    const data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
    if (data.byteLength === 0) return
    this.bytes += data.byteLength
    if (!this.stream.write(data)) await this.drained()
  }

  private drained(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onDrain = () => {
        this.stream.off('error', onError)
        resolve()
      }
      const onError = (error: Error) => {
        this.stream.off('drain', onDrain)
        reject(error)
      }
      this.stream.once('drain', onDrain)
      this.stream.once('error', onError)
    })
  }
}
