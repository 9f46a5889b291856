/**
 * What a server supports, learned as we go: when a route answers "unsupported" (code 0 / HTTP 406) or
 * 404 for the route itself, the operation is recorded here and later calls fail fast with the reason,
 * so the UI can disable the action instead of showing an error on every click.
 */
import { operationLabels, type CapabilitySnapshot, type Operation } from '../../../contract/connections'

export { operationLabels, type CapabilitySnapshot, type Operation }

/** One entry of the map; `supported: undefined` means "not tried yet". */
export interface Capability {
  operation: Operation
  label: string
  supported: boolean | undefined
  /** Why it is unsupported (the server's words, redacted), when it is. */
  reason?: string
}

export class CapabilityMap {
  private readonly entries = new Map<Operation, Capability>()

  get(operation: Operation): Capability | undefined {
    return this.entries.get(operation)
  }

  label(operation: Operation): string {
    return operationLabels[operation]
  }

  isSupported(operation: Operation): boolean | undefined {
    return this.entries.get(operation)?.supported
  }

  markSupported(operation: Operation): void {
    if (this.entries.get(operation)?.supported === true) return
    this.entries.set(operation, { operation, label: operationLabels[operation], supported: true })
  }

  markUnsupported(operation: Operation, reason: string): void {
    this.entries.set(operation, { operation, label: operationLabels[operation], supported: false, reason })
  }

  snapshot(): CapabilitySnapshot {
    const out = {} as CapabilitySnapshot
    for (const operation of Object.keys(operationLabels) as Operation[]) {
      const entry = this.entries.get(operation)
      out[operation] = entry?.reason !== undefined ? { supported: entry.supported, reason: entry.reason } : { supported: entry?.supported }
    }
    return out
  }
}
