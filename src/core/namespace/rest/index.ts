import { AppError } from '../../../contract'
import { registerImplementation } from '../connect'
import { RestNamespaceClient, type RestClientOptions } from './client'

export { RestNamespaceClient, type RestClientOptions } from './client'
export { CapabilityMap, operationLabels, type Capability, type CapabilitySnapshot, type Operation } from './capabilities'
export { verifyConnection, type VerificationReport, type VerificationStep } from './verify'
export { takeInventory, describeInventory, INVENTORY_NAMESPACE_LIMIT, type CatalogInventory } from './inventory'
export { encodeId, decodeId, formEncode, ARROW_FILE, ARROW_STREAM } from './wire'

/**
 * Properties of `connectNamespace('rest', …)`, as the specification (and the Rust client) name them:
 * `uri` (required), `headers.<Name>` (or `header.<Name>`) sent as `<Name>`, `delimiter`; plus our
 * `timeout_ms` and `max_retries`.
 */
export function restOptionsFromProperties(properties: Record<string, string>): RestClientOptions {
  const headers: Record<string, string> = {}
  for (const [key, value] of Object.entries(properties)) {
    const m = /^headers?\.(.+)$/.exec(key)
    if (!m) continue
    const name = m[1]!
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new AppError('invalid_input', `"${name}" is not a valid HTTP header name`)
    if (/[\r\n\0]/.test(value)) throw new AppError('invalid_input', `The value of the header "${name}" contains a line break`)
    headers[name] = value
  }
  const num = (key: string): number | undefined => {
    if (properties[key] === undefined) return undefined
    const n = Number(properties[key])
    if (!Number.isFinite(n) || n < 0) throw new AppError('invalid_input', `The property "${key}" must be a non-negative number`)
    return n
  }
  return {
    uri: properties.uri!,
    headers,
    delimiter: properties.delimiter || undefined,
    timeoutMs: num('timeout_ms'),
    maxRetries: num('max_retries'),
  }
}

registerImplementation('rest', ['uri'], async (properties) => new RestNamespaceClient(restOptionsFromProperties(properties)))
