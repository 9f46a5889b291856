import type { EventEmitter } from 'node:events'
import type { MessagePortMain } from './message-ports.cjs'
import type { Readable } from 'node:stream'

/** Electron's `UtilityProcess`, as the stand-in gives it (utility-process.cjs). */
export declare class UtilityProcess extends EventEmitter {
  readonly pid: number | undefined
  readonly stdout: Readable | null
  readonly stderr: Readable | null
  postMessage(message: unknown, transfer?: MessagePortMain[]): void
  kill(): boolean
}

export declare function fork(modulePath: string, args?: string[], options?: { stdio?: string | string[]; env?: NodeJS.ProcessEnv; execArgv?: string[]; cwd?: string; serviceName?: string }): UtilityProcess
