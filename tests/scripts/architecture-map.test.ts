import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// docs/ARCHITECTURE.md's feature → files map is where a developer looks for a feature's files; a moved or deleted
// file must fail here rather than send the reader to a path that is gone.
const repo = resolve(__dirname, '../..')
const doc = readFileSync(join(repo, 'docs/ARCHITECTURE.md'), 'utf8')

/** The section under the "Feature → files map" heading, up to the next `## ` heading. */
function mapSection(text: string): string[] {
  const lines = text.split('\n')
  const start = lines.findIndex((l) => /^##\s+Feature → files map/.test(l))
  if (start < 0) throw new Error('no "Feature → files map" section')
  const end = lines.findIndex((l, i) => i > start && /^##\s/.test(l))
  return lines.slice(start + 1, end < 0 ? undefined : end)
}

/** The rows of the first table under the `### <title>` heading of the map, each as its cells keyed by the header. */
function mapRows(text: string, title: string): Array<Record<string, string>> {
  const lines = mapSection(text)
  const start = lines.findIndex((l) => l.startsWith('### ') && l.slice(4).trim() === title)
  if (start < 0) throw new Error(`no "### ${title}" in the map`)
  const table: string[] = []
  for (const line of lines.slice(start + 1)) {
    if (/^###?\s/.test(line)) break
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

const looksLikePath = (span: string): boolean => /\.(tsx?|css|md|json|html|wat)$/.test(span) || span.endsWith('/')

/**
 * A path a cell names. `whole`: a folder written bare (`demo/`), which names everything beneath it; a folder followed by
 * a list names only the listed entries. A bare name from a list ends in `.ts(x)`: it may be a .ts or a .tsx file.
 */
interface Named {
  path: string
  whole: boolean
}

/**
 * The paths one cell names, resolved against `rootOf(span, marker)`. A cell is split at `;`; a segment may start
 * with a marker word (`server`, `main`, `harness`, `host`) that moves its root. A folder followed by a list of bare names,
 * as in "`export/` (module, jobs)", names those files (or folders, when written with a trailing `/`; a name with
 * its own extension, as `reduce.wat`, is taken as written).
 */
function cellPaths(cell: string, rootOf: (span: string, marker: string | undefined) => string): Named[] {
  const paths: Named[] = []
  for (const segment of cell.split(';')) {
    const marker = /^\s*(server|main|harness|host)\s+`/.exec(segment)?.[1]
    const spans = /`([^`]+)`(\s*\(([^()`]*)\))?/g
    for (const m of segment.matchAll(spans)) {
      const span = m[1]!
      if (!looksLikePath(span.replace(/[{}]/g, ''))) continue
      for (const one of expand(span)) {
        const full = one.startsWith('src/') ? one : rootOf(one, marker) + one
        const names = m[3]
        const listed = one.endsWith('/') && names !== undefined && /^[\w.-]+\/?(,\s*[\w.-]+\/?)*$/.test(names.trim())
        paths.push({ path: full, whole: one.endsWith('/') && !listed })
        if (!listed) continue
        for (const name of names.split(',').map((n) => n.trim())) {
          if (name.endsWith('/')) paths.push({ path: full + name, whole: true })
          else paths.push({ path: full + name + (/\.[a-z]+$/.test(name) ? '' : '.ts(x)'), whole: false })
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
const contractRoot = (): string => 'src/contract/'
const srcRoot = (): string => 'src/'

const DECISION = 'where the decision is made'
type Root = (span: string, marker: string | undefined) => string
/** The three maps, and where each column's paths start. */
const MAPS: Array<{ title: string; columns: Record<string, Root> }> = [
  { title: 'Renderer map', columns: { files: rendererRoot, contract: contractRoot, [DECISION]: srcRoot } },
  { title: 'Core map', columns: { files: coreRoot, contract: contractRoot, [DECISION]: srcRoot } },
  { title: 'Server and processes map', columns: { files: srcRoot, [DECISION]: srcRoot } },
]

/** A bare name from a folder's list may be a .ts or a .tsx file. */
function exists(path: string): boolean {
  if (path.endsWith('.ts(x)')) {
    const stem = path.slice(0, -'.ts(x)'.length)
    return existsSync(join(repo, stem + '.ts')) || existsSync(join(repo, stem + '.tsx'))
  }
  return existsSync(join(repo, path))
}

/** Whether `file` (a path from the repository's root) is one a named path names. */
function names(named: Named, file: string): boolean {
  if (named.whole) return file.startsWith(named.path)
  if (named.path.endsWith('.ts(x)')) {
    const stem = named.path.slice(0, -'.ts(x)'.length)
    return file === `${stem}.ts` || file === `${stem}.tsx`
  }
  return file === named.path
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(`${dir}/${e.name}`) : [`${dir}/${e.name}`],
  )
}

interface Row {
  map: string
  name: string
  cells: Record<string, string>
  /** Every path the row names, per column. */
  named: Record<string, Named[]>
}

function readRows(text: string): Row[] {
  return MAPS.flatMap(({ title, columns }) =>
    mapRows(text, title).map((cells) => ({
      map: title,
      name: Object.values(cells)[0] ?? '',
      cells,
      named: Object.fromEntries(Object.entries(columns).map(([column, root]) => [column, cellPaths(cells[column] ?? '', root)])),
    })),
  )
}

describe('docs/ARCHITECTURE.md feature → files map', () => {
  const rows = readRows(doc)
  const all = rows.flatMap((r) => Object.values(r.named).flat())

  it.each(MAPS.map((m) => [m.title, m] as const))('the %s has rows, the columns this test reads and a decision in every row', (title, map) => {
    const mine = mapRows(doc, title)
    expect(mine.length).toBeGreaterThan(5)
    expect(Object.keys(mine[0]!)).toEqual(expect.arrayContaining(Object.keys(map.columns)))
    const undecided = rows.filter((r) => r.map === title && r.named[DECISION]!.length === 0).map((r) => r.name)
    expect(undecided).toEqual([])
  })

  it.each(rows.map((r) => [`${r.map}: ${r.name}`, r] as const))('every file the "%s" row names exists', (_name, row) => {
    const missing = Object.values(row.named).flat().map((n) => n.path).filter((p) => !exists(p))
    expect(missing).toEqual([])
  })

  it('names every source file under src/ (by its path or a folder written bare)', () => {
    // A new file must be given its place in the map; a file no row names fails here.
    const unnamed = sourceFiles('src').filter((file) => !all.some((n) => names(n, file)))
    expect(unnamed).toEqual([])
  })

  it("answers a newcomer's three questions in the decision column", () => {
    // Where a dropped CSV gets its types; where an object-storage create takes its claim; which files make UMAP.
    const decidedIn = (words: RegExp): string[] =>
      rows.filter((r) => words.test(r.cells[DECISION] ?? '')).flatMap((r) => r.named[DECISION]!.map((n) => n.path))
    expect(decidedIn(/CSV's column types/)).toContain('src/core/import/readers/csv.ts')
    expect(decidedIn(/object-storage create takes its claim/)).toContain('src/server/catalogs.ts')
    expect(decidedIn(/UMAP is/)).toEqual(
      expect.arrayContaining(['src/core/map/umap.ts', 'src/core/map/umapWorker.ts', 'src/core/map/basisSource.ts', 'src/core/map/reduce.wat']),
    )
    // …and those files hold what the map says they decide.
    expect(readFileSync(join(repo, 'src/core/import/readers/csv.ts'), 'utf8')).toMatch(/csvArrowType\(/)
    expect(readFileSync(join(repo, 'src/server/catalogs.ts'), 'utf8')).toMatch(/this\.claims\?\.claim\(/)
    expect(readFileSync(join(repo, 'src/core/map/module.ts'), 'utf8')).toMatch(/umapColumn\(/)
  })

  it('reads brace forms, folder lists and bare folders', () => {
    expect(expand('table/{TableView,DataGrid}.tsx')).toEqual(['table/TableView.tsx', 'table/DataGrid.tsx'])
    expect(cellPaths('`export/` (module, jobs, reduce.wat, routes/); main `ipc.ts`; `demo/`', coreRoot)).toEqual([
      { path: 'src/core/export/', whole: false },
      { path: 'src/core/export/module.ts(x)', whole: false },
      { path: 'src/core/export/jobs.ts(x)', whole: false },
      { path: 'src/core/export/reduce.wat', whole: false },
      { path: 'src/core/export/routes/', whole: true },
      { path: 'src/main/ipc.ts', whole: false },
      { path: 'src/core/demo/', whole: true },
    ])
    expect(cellPaths('`App.tsx`, `table/x.ts`, `lib/{sql,names}.ts`', rendererRoot).map((n) => n.path)).toEqual([
      'src/renderer/App.tsx',
      'src/renderer/features/table/x.ts',
      'src/renderer/lib/sql.ts',
      'src/renderer/lib/names.ts',
    ])
    expect(names({ path: 'src/core/demo/', whole: true }, 'src/core/demo/tables.ts')).toBe(true)
    expect(names({ path: 'src/core/export/', whole: false }, 'src/core/export/run.ts')).toBe(false)
    expect(names({ path: 'src/core/export/run.ts(x)', whole: false }, 'src/core/export/run.ts')).toBe(true)
  })
})
