import type { StorageOptions } from '../../../contract/objectStore'

/**
 * Read one of object_store's configuration keys the way Lance does: any of its aliases in the storage options
 * (case-insensitive), then the same name upper-cased in the environment (`AZURE_STORAGE_ACCOUNT_KEY`, …).
 */
export function option(options: StorageOptions, aliases: readonly string[], env: NodeJS.ProcessEnv = process.env): string | undefined {
  const lower = new Map(Object.entries(options).map(([k, v]) => [k.toLowerCase(), v]))
  for (const alias of aliases) {
    const value = lower.get(alias)
    if (value !== undefined && value !== '') return value
  }
  for (const alias of aliases) {
    const value = env[alias.toUpperCase()]
    if (value !== undefined && value !== '') return value
  }
  return undefined
}

export function isTrue(value: string | undefined): boolean {
  return value !== undefined && /^(true|1|yes|on)$/i.test(value.trim())
}

/** The `storage.<key>` properties lancedb's `dir` namespace takes, for the same options. */
export function storageProperties(options: StorageOptions): Record<string, string> {
  return Object.fromEntries(Object.entries(options).map(([k, v]) => [`storage.${k}`, v]))
}

/** Storage options given as `storage.<key>` connection properties (the namespace specification's form). */
export function storageOptionsFromProperties(properties: Record<string, string>): StorageOptions {
  const options: StorageOptions = {}
  for (const [key, value] of Object.entries(properties)) if (key.startsWith('storage.') && key.length > 8) options[key.slice(8)] = value
  return options
}
