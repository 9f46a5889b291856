import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { TableDescription, NamespaceClient, TableId } from '../core/namespace'
import type { Locator } from './locator'

/**
 * Table descriptions, reused while the table has not changed on disk. Describing through the `dir`
 * client opens the table afresh each time (a namespace lookup plus a manifest read); a Lance commit always
 * adds a file to `_versions/` and rewrites `latest_version_hint.json`, so their stat (and the hint's
 * content, for file systems with coarse timestamps) is a cheap, safe change token. Any doubt → describe.
 */
export class DescribeCache {
  private readonly entries = new Map<string, { token: string; value: TableDescription }>()

  constructor(
    private readonly client: NamespaceClient,
    private readonly locator: Locator,
    private readonly capacity = 1024,
  ) {}

  async describe(id: TableId, signal?: AbortSignal): Promise<TableDescription> {
    const key = [...id.namespace, id.name].join('$')
    const located = await this.locator.locate(id)
    // The token is read before describing: a commit racing with us makes the entry stale, never wrong-and-fresh.
    const token = located?.hasData ? await changeToken(located.location) : undefined
    const hit = this.entries.get(key)
    if (token && hit?.token === token) return hit.value
    const value = await this.client.describeTable(id, { signal })
    if (token) {
      this.entries.delete(key)
      this.entries.set(key, { token, value })
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!)
    }
    return value
  }

  forget(id: TableId): void {
    this.entries.delete([...id.namespace, id.name].join('$'))
  }
}

async function changeToken(location: string): Promise<string | undefined> {
  try {
    const dir = join(location, '_versions')
    const [versions, hint] = await Promise.all([stat(dir, { bigint: true }), readFile(join(dir, 'latest_version_hint.json'), 'utf8').catch(() => '')])
    return `${versions.ino}:${versions.mtimeNs}:${versions.size}:${hint}`
  } catch {
    return undefined
  }
}
