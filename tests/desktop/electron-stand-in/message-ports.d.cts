import type { EventEmitter } from 'node:events'

/** Electron's `MessagePortMain`, as the stand-in gives it (message-ports.cjs). */
export declare class MessagePortMain extends EventEmitter {
  readonly id: string
  postMessage(message: unknown): void
  start(): void
  close(): void
}

/** Electron's `MessageChannelMain`: a connected pair of ends. */
export declare class MessageChannelMain {
  readonly port1: MessagePortMain
  readonly port2: MessagePortMain
}
