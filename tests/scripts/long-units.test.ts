import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error -- plain JavaScript without type declarations
import { LIMIT, measure } from '../../scripts/long-units.mjs'

type Long = { file: string; line: number; name: string; lines: number; why: boolean }
type Hook = { file: string; line: number; name: string }
const run = measure as (root?: string) => { long: Long[]; jsxHooks: Hook[] }

// Issue #41 item 4: a unit over LIMIT lines says why directly above it (a comment with `Why long:`), and a hook
// (use*) returns data and handlers, never JSX. The units not yet split are listed here as known exceptions; the
// list may only shrink (a stale entry fails too), so the rule holds for everything new.
const knownLong: string[] = []
const knownJsxHooks: string[] = []

describe('units that are one thing', () => {
  const { long, jsxHooks } = run()
  const key = (u: { file: string; name: string }) => `${u.file} ${u.name}`

  it(`every unit over ${LIMIT} lines says why (or is a known exception)`, () => {
    const unexplained = long.filter((u) => !u.why).map(key)
    expect(unexplained.filter((k) => !knownLong.includes(k))).toEqual([])
    // A split unit leaves the list: keep it short and true.
    expect(knownLong.filter((k) => !unexplained.includes(k))).toEqual([])
  })

  it('no hook builds JSX (or is a known exception)', () => {
    const found = jsxHooks.map(key)
    expect(found.filter((k) => !knownJsxHooks.includes(k))).toEqual([])
    expect(knownJsxHooks.filter((k) => !found.includes(k))).toEqual([])
  })
})

describe('the check itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'long-units-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')
  writeFileSync(join(dir, 'long.ts'), `export function tooLong() {\n${body(LIMIT)}\n}\n`)
  writeFileSync(join(dir, 'short.ts'), `export const fine = () => {\n${body(LIMIT - 2)}\n}\n`)
  writeFileSync(join(dir, 'why.ts'), `// Why long: one table, read top to bottom.\nexport const explained = () => {\n${body(LIMIT)}\n}\n`)
  writeFileSync(
    join(dir, 'hooks.tsx'),
    [
      'export function useRenders() { const element = <div />; return { element } }',
      'export function useButton() { const button = () => <button />; return { button } }',
      'export function useColumns() { return [{ cell: () => <span /> }] }',
      'export function useData() { return { n: 1 } }',
    ].join('\n'),
  )
  const { long, jsxHooks } = run(dir)

  it('finds a long unit, tells a long unit that says why, and leaves a short one alone', () => {
    expect(long.map((u) => [u.name, u.why])).toEqual(expect.arrayContaining([['tooLong', false], ['explained', true]]))
    expect(long.map((u) => u.name)).not.toContain('fine')
  })

  it('finds hooks that build JSX or a render function, not a column render callback', () => {
    expect(jsxHooks.map((h) => h.name).sort()).toEqual(['useButton', 'useRenders'])
  })
})
