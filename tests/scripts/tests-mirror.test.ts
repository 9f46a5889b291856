import { existsSync, readdirSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// tests/core mirrors src/core's folders (docs/ARCHITECTURE.md, "Where the tests are"): the tests of
// src/core/namespace/dir/ are in tests/core/namespace/dir/, and so on. A test dropped flat at the top, or into a
// folder named after a theme rather than the code it tests, fails here instead of starting a second layout.
const repo = resolve(__dirname, '../..')

/**
 * The only files at tests/core's top: the wiring (service.ts and the top-level files beside it in src/core) seen
 * whole — one service, its settings, the files it rewrites whole and its side files, Lance's threads, closing under calls, the file pickers.
 */
const WIRING_TESTS = [
  'service.test.ts',
  'settings.test.ts',
  'atomicFile.test.ts',
  'side-cache.test.ts',
  'lance-threads.test.ts',
  'close-under-calls.test.ts',
  'pick-files.test.ts',
]

function files(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(`${dir}/${e.name}`) : [`${dir}/${e.name}`],
  )
}

/** Why `file` (a path under tests/core) breaks the mirror, or null when it sits where it should. */
function misplaced(file: string, srcFolderExists: (folder: string) => boolean): string | null {
  const parts = file.replace(/^tests\/core\//, '').split('/')
  const name = parts.pop()!
  if (parts.length === 0) return WIRING_TESTS.includes(name) ? null : 'flat at the top of tests/core: move it under the src/core folder it tests'
  // A test's helpers may sit in a fixtures/ folder beside it (child-process scripts, shared data); a test may not.
  const isTest = name.endsWith('.test.ts')
  const folder = !isTest && parts[parts.length - 1] === 'fixtures' ? parts.slice(0, -1) : parts
  if (folder.length === 0) return 'a fixtures/ folder at the top of tests/core: put it beside the tests that use it'
  const src = `src/core/${folder.join('/')}`
  return srcFolderExists(src) ? null : `${src}/ does not exist: a test's folder is the src/core folder it tests`
}

const isFolder = (path: string) => existsSync(join(repo, path)) && statSync(join(repo, path)).isDirectory()

describe('tests/core mirrors src/core', () => {
  it("every file under tests/core sits in a src/core folder's twin (or is a listed wiring test)", () => {
    const wrong = files('tests/core')
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => {
        const why = misplaced(f, isFolder)
        return why ? [`${f}: ${why}`] : []
      })
    expect(wrong).toEqual([])
  })

  it('lists only wiring tests that exist', () => {
    expect(WIRING_TESTS.filter((name) => !existsSync(join(repo, 'tests/core', name)))).toEqual([])
  })

  it('refuses the layouts it replaced and accepts the mirror', () => {
    const srcFolders = new Set(['src/core/namespace', 'src/core/namespace/dir', 'src/core/namespace/dir/claim', 'src/core/import'])
    const has = (folder: string) => srcFolders.has(folder)
    expect(misplaced('tests/core/dir-client.test.ts', has)).toMatch(/flat at the top/)
    expect(misplaced('tests/core/recovery/crash.test.ts', has)).toMatch(/src\/core\/recovery\/ does not exist/)
    expect(misplaced('tests/core/namespace/dir/fixtures/crash.test.ts', has)).toMatch(/fixtures\/ does not exist/)
    expect(misplaced('tests/core/fixtures/writer.ts', has)).toMatch(/fixtures\/ folder at the top/)
    expect(misplaced('tests/core/service.test.ts', has)).toBeNull()
    expect(misplaced('tests/core/namespace/dir/client.test.ts', has)).toBeNull()
    expect(misplaced('tests/core/namespace/dir/claim/name-claims.test.ts', has)).toBeNull()
    expect(misplaced('tests/core/namespace/dir/fixtures/writer.ts', has)).toBeNull()
    expect(misplaced('tests/core/namespace/contract-suite.ts', has)).toBeNull()
  })
})
