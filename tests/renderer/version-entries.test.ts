import { describe, expect, it } from 'vitest'
import type { VersionInfo } from '../../src/contract'
import { versionEntries } from '../../src/renderer/features/lifecycle/format'

const v = (version: number, operation: VersionInfo['operation'], tags: string[] = []): VersionInfo => ({ version, timestamp: version * 1000, rowCount: version * 10, operation, tags })

describe('versionEntries: an import does not bury the timeline', () => {
  it('folds 100 consecutive appends (a 1M-row import in 10k-row chunks) into one entry, newest first', () => {
    const versions = [v(1, 'create'), ...Array.from({ length: 100 }, (_, i) => v(i + 2, 'append')), v(102, 'other')]
    const entries = versionEntries(versions)
    expect(entries).toHaveLength(3)
    expect(entries[0]).toMatchObject({ kind: 'version', version: { version: 102 } })
    expect(entries[1]!.kind).toBe('run')
    const run = entries[1] as { kind: 'run'; versions: VersionInfo[] }
    expect(run.versions.map((x) => x.version)).toEqual(Array.from({ length: 100 }, (_, i) => 101 - i))
    expect(entries[2]).toMatchObject({ kind: 'version', version: { version: 1 } })
  })

  it('keeps short runs, tagged versions and gaps (pruned versions) as they are', () => {
    const entries = versionEntries([v(1, 'create'), v(2, 'append'), v(3, 'append'), v(4, 'delete'), v(5, 'append'), v(6, 'append', ['release']), v(7, 'append'), v(9, 'append'), v(10, 'append')])
    expect(entries.map((e) => (e.kind === 'version' ? e.version.version : `run ${e.versions.length}`))).toEqual([10, 9, 7, 6, 5, 4, 3, 2, 1])
  })
})
