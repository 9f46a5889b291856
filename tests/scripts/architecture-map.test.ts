import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// docs/ARCHITECTURE.md's feature → files map is where a developer looks for a feature's files; a moved or deleted
// file must fail here rather than send the reader to a path that is gone.
const repo = resolve(__dirname, '../..')
const doc = readFileSync(join(repo, 'docs/ARCHITECTURE.md'), 'utf8')

/** The rows of the table under the "Feature → files map" heading, each as its cells keyed by the header. */
function mapRows(text: string): Array<Record<string, string>> {
  const lines = text.split('\n')
  const start = lines.findIndex((l) => /^##\s+Feature → files map/.test(l))
  if (start < 0) throw new Error('no "Feature → files map" section')
  const table: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (/^##\s/.test(line)) break
    if (line.startsWith('|')) table.push(line)
    else if (table.length > 0) break
  }
  const cells = (line: string): string[] => line.slice(1, line.lastIndexOf('|')).split('|').map((c) => c.trim())
  const header = cells(table[0] ?? '')
  return table.slice(2).map((line) => Object.fromEntries(cells(line).map((c, i) => [header[i] ?? String(i), c])))
}

/** `a/{b,c}.ts` → `a/b.ts`, `a/c.ts` (one brace group, as the table writes them). */
function expand(path: string): string[] {
  const brace = /\{([^{}]*)\}/.exec(path)
  if (!brace) return [path]
  const head = path.slice(0, brace.index)
  const tail = path.slice(brace.index + brace[0].length)
  return brace[1]!.split(',').flatMap((alt) => expand(head + alt.trim() + tail))
}

const looksLikePath = (span: string): boolean => /\.(tsx?|css|md|json|html)$/.test(span) || span.endsWith('/')

/**
 * The paths one cell names, resolved against `rootOf(span, marker)`. A cell is split at `;`; a segment may start
 * with a marker word (`server`, `main`, `harness`, `host`) that moves its root. A folder followed by a list of bare names,
 * as in "`export/` (module, jobs, writers)", names those files (or folders, when written with a trailing `/`).
 */
function cellPaths(cell: string, rootOf: (span: string, marker: string | undefined) => string): string[] {
  const paths: string[] = []
  for (const segment of cell.split(';')) {
    const marker = /^\s*(server|main|harness|host)\s+`/.exec(segment)?.[1]
    const spans = /`([^`]+)`(\s*\(([^()`]*)\))?/g
    for (const m of segment.matchAll(spans)) {
      const span = m[1]!
      if (!looksLikePath(span.replace(/[{}]/g, ''))) continue
      for (const one of expand(span)) {
        const full = one.startsWith('src/') ? one : rootOf(one, marker) + one
        paths.push(full)
        const names = m[3]
        if (one.endsWith('/') && names && /^[\w.-]+\/?(,\s*[\w.-]+\/?)*$/.test(names.trim())) {
          for (const name of names.split(',').map((n) => n.trim())) paths.push(full + name + (name.endsWith('/') ? '' : '.ts(x)'))
        }
      }
    }
  }
  return paths
}

// Renderer cells are under src/renderer/features/, except what names one of src/renderer's own entries
// (App.tsx, api/, components/, lib/, queries/, shell/, styles/).
const rendererTop = new Set(readdirSync(join(repo, 'src/renderer')).filter((e) => e !== 'features'))
const rendererRoot = (span: string): string =>
  rendererTop.has(span.split('/')[0]!) ? 'src/renderer/' : 'src/renderer/features/'
const coreRoot = (_span: string, marker: string | undefined): string => (marker ? `src/${marker}/` : 'src/core/')

/** A bare name from a folder's list may be a .ts or a .tsx file. */
function exists(path: string): boolean {
  if (path.endsWith('.ts(x)')) {
    const stem = path.slice(0, -'.ts(x)'.length)
    return existsSync(join(repo, stem + '.ts')) || existsSync(join(repo, stem + '.tsx'))
  }
  return existsSync(join(repo, path))
}

describe('docs/ARCHITECTURE.md feature → files map', () => {
  const rows = mapRows(doc)

  it('has the columns and rows this test reads', () => {
    expect(rows.length).toBeGreaterThan(10)
    expect(Object.keys(rows[0]!)).toEqual(expect.arrayContaining(['feature', 'renderer files', 'contract', 'core / server / main files']))
  })

  it.each(rows.map((r) => [r.feature!, r] as const))('every file the "%s" row names exists', (_feature, row) => {
    const named = [
      ...cellPaths(row['renderer files'] ?? '', rendererRoot),
      ...cellPaths(row.contract ?? '', () => 'src/contract/'),
      ...cellPaths(row['core / server / main files'] ?? '', coreRoot),
    ]
    const missing = named.filter((p) => !exists(p))
    expect(missing).toEqual([])
  })

  it('reads brace forms and folder lists', () => {
    expect(expand('table/{TableView,DataGrid}.tsx')).toEqual(['table/TableView.tsx', 'table/DataGrid.tsx'])
    expect(cellPaths('`export/` (module, jobs); main `ipc.ts`', coreRoot)).toEqual([
      'src/core/export/',
      'src/core/export/module.ts(x)',
      'src/core/export/jobs.ts(x)',
      'src/main/ipc.ts',
    ])
    expect(cellPaths('`App.tsx`, `table/x.ts`, `lib/{sql,names}.ts`', rendererRoot)).toEqual([
      'src/renderer/App.tsx',
      'src/renderer/features/table/x.ts',
      'src/renderer/lib/sql.ts',
      'src/renderer/lib/names.ts',
    ])
  })
})
