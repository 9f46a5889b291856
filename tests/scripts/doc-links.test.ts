import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// The README and docs/ link to each other by relative paths and heading anchors; a moved section or a renamed
// heading must not leave a reader on a dead link.
const repo = resolve(__dirname, '../..')
const docs = [join(repo, 'README.md'), ...readdirSync(join(repo, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(repo, 'docs', f))]

/** Lines outside fenced code blocks (a `# comment` in a bash block is no heading, a `](x)` there no link). */
function proseLines(text: string): string[] {
  const lines: string[] = []
  let fenced = false
  for (const line of text.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced
    else if (!fenced) lines.push(line)
  }
  return lines
}

/** GitHub's heading anchor: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2, …. */
function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    if (!heading) continue
    const base = heading[1]!
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    anchors.add(n === 0 ? base : `${base}-${n}`)
  }
  return anchors
}

/** Every `[text](target)` and `![alt](target)` in prose, without inline code spans. */
function links(text: string): string[] {
  const found: string[] = []
  for (const line of proseLines(text)) {
    const prose = line.replace(/`[^`]*`/g, '')
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) found.push(m[1]!)
  }
  return found
}

describe('links in README.md and docs/', () => {
  it('computes GitHub anchors for headings with punctuation, code and repeats', () => {
    const anchors = headingAnchors('# The desktop app: test rig, real Electron, packages\n## Feature → files map\n## `npm run serve`\n## Notes\n## Notes\n```bash\n# not a heading\n```\n')
    expect([...anchors]).toEqual(['the-desktop-app-test-rig-real-electron-packages', 'feature--files-map', 'npm-run-serve', 'notes', 'notes-1'])
  })

  it('every relative link points to an existing file, and every anchor to a heading there', () => {
    const broken: string[] = []
    let checked = 0
    for (const file of docs) {
      for (const target of links(readFileSync(file, 'utf8'))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http(s), mailto: not ours to check
        checked += 1
        const [path = '', anchor] = target.split('#', 2)
        const dest = path === '' ? file : resolve(dirname(file), decodeURIComponent(path))
        const where = `${relative(repo, file)}: ${target}`
        if (!existsSync(dest)) {
          broken.push(`${where} (no such file)`)
          continue
        }
        if (anchor !== undefined && dest.endsWith('.md') && statSync(dest).isFile() && !headingAnchors(readFileSync(dest, 'utf8')).has(anchor)) {
          broken.push(`${where} (no heading with that anchor)`)
        }
      }
    }
    expect(broken).toEqual([])
    // The docs link to each other a lot: a parser that found nothing would pass vacuously.
    expect(checked).toBeGreaterThan(30)
  })
})
