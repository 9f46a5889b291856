// Units that are one thing (issue #41 item 4): lists every function, arrow and method in src/**/*.ts(x) longer than
// LIMIT lines, and every hook (a function named use*) that builds JSX — hooks return data and handlers, components
// render. A long unit may stay long when the comment directly above it says why, starting with `Why long:`.
// `node scripts/long-units.mjs` prints the lists and exits 1 when a long unit has no such comment or a hook builds JSX;
// tests/scripts/long-units.test.ts runs the same check.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

export const LIMIT = 150
const WHY = /why long:/i

const repo = fileURLToPath(new URL('..', import.meta.url))

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : []
  })
}

/** The name a reader would look for: the declaration's, the variable's or property's it is assigned to, else the call it is passed to. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text
  if (node.name) return node.name.getText()
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text
  if (ts.isPropertyAssignment(parent)) return parent.name.getText()
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText()
    const first = parent.arguments[0]
    const label = first && ts.isStringLiteralLike(first) ? ` ${first.text}` : ''
    // A wrapped component (`memo(function …)`, `forwardRef(…)`) takes its variable's name.
    if (ts.isVariableDeclaration(parent.parent) && ts.isIdentifier(parent.parent.name)) return parent.parent.name.text
    return `(${callee}${label} callback)`
  }
  return '(anonymous)'
}

/** Whether the comment lines directly above `line` (0-based) say why the unit is long. */
function hasWhy(lines, line) {
  const comment = []
  for (let n = line - 1; n >= 0; n--) {
    const text = lines[n].trim()
    if (!/^(\/\/|\/\*|\*)/.test(text)) break
    comment.unshift(text)
  }
  return WHY.test(comment.join(' '))
}

/** Whether `node` builds JSX; a render callback it hands on as a property (a table column's `cell: () => <…/>`) is not counted. */
function containsJsx(node) {
  let found = false
  const visit = (child) => {
    if (found || (ts.isFunctionLike(child) && ts.isPropertyAssignment(child.parent))) return
    if (ts.isJsxElement(child) || ts.isJsxSelfClosingElement(child) || ts.isJsxFragment(child)) found = true
    else ts.forEachChild(child, visit)
  }
  ts.forEachChild(node, visit)
  return found
}

/** `{ long: [{ file, line, name, lines, why }], jsxHooks: [{ file, line, name }] }` for every source file under `root`. */
export function measure(root = join(repo, 'src')) {
  const long = []
  const jsxHooks = []
  for (const path of sourceFiles(root)) {
    const text = readFileSync(path, 'utf8')
    const file = relative(repo, path).split(sep).join('/')
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
    const lines = text.split('\n')
    const visit = (node) => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        // The unit starts at its declaration: the `const X = (…) =>` line, or `export function`.
        let head = node
        const startLine = (n) => source.getLineAndCharacterOfPosition(n.getStart(source)).line
        while (head.parent && !ts.isSourceFile(head.parent) && !ts.isBlock(head.parent) && startLine(head.parent) === startLine(node)) head = head.parent
        const first = startLine(head)
        const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
        const count = last - first + 1
        const name = nameOf(node)
        if (count > LIMIT) long.push({ file, line: first + 1, name, lines: count, why: hasWhy(lines, first) })
        if (/^use[A-Z]/.test(name) && containsJsx(node.body)) jsxHooks.push({ file, line: first + 1, name })
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  long.sort((a, b) => b.lines - a.lines)
  return { long, jsxHooks }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { long, jsxHooks } = measure()
  console.log(`Units over ${LIMIT} lines (${long.length}):`)
  for (const u of long) console.log(`  ${String(u.lines).padStart(4)}  ${u.name}  ${u.file}:${u.line}${u.why ? '  (why given)' : ''}`)
  console.log(`Hooks that build JSX (${jsxHooks.length}):`)
  for (const h of jsxHooks) console.log(`  ${h.name}  ${h.file}:${h.line}`)
  if (long.some((u) => !u.why) || jsxHooks.length > 0) process.exitCode = 1
}
