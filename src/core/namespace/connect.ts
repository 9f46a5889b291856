import { AppError } from '../../contract'
import type { NamespaceClient } from './client'

/**
 * A factory per implementation id. `rest` registers itself from ./rest; kept as a map so
 * the factory has one seam and an unknown id is a clear error.
 */
type Factory = (properties: Record<string, string>) => Promise<NamespaceClient>
const factories = new Map<string, { required: string[]; create: Factory }>()

export function registerImplementation(id: string, required: string[], create: Factory): void {
  factories.set(id, { required, create })
}

/** `connectNamespace(implementationId, properties)` of the specification. */
export async function connectNamespace(implementationId: string, properties: Record<string, string>): Promise<NamespaceClient> {
  const entry = factories.get(implementationId)
  if (!entry) {
    const known = [...factories.keys()].map((k) => `"${k}"`).join(', ')
    throw new AppError('invalid_input', `Unknown namespace implementation "${implementationId}"; known: ${known}`)
  }
  for (const key of entry.required) {
    if (typeof properties[key] !== 'string' || properties[key] === '') {
      throw new AppError('invalid_input', `The "${implementationId}" implementation needs the property "${key}"`)
    }
  }
  return entry.create(properties)
}
