// The `doors/allowed` lint rule: each folder of src lists what it MAY import from the other folders (the table is
// in eslint.config.mjs); any import of ours that the importer's folder does not list is refused. Static imports,
// re-exports (`export … from`), `import type`, type-position `import('…')`, dynamic `import()` and `require()` of a
// relative path are all checked. Packages are not this rule's business (`no-restricted-imports` holds those).
import { existsSync, statSync } from 'node:fs'
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path'

const posix = (path) => path.split(sep).join('/')
// A pattern's `*` stands for one folder name (`renderer/features/*`: every feature is a room of its own).
const matcher = (pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+')}$`)

/**
 * Options: `{ root: 'src' (or an absolute path), rooms: { [folder]: Array<entry> } }`. A file belongs to the deepest listed folder that
 * holds it (its room); its own room is always open. An entry is a room (any file in that room, not in rooms listed
 * below it), a file without its extension (`core/query/index`: that file only; `core/query` imported by folder
 * name is its index), or `{ types: entry }`: the same, for type-only imports.
 */
export const allowed = {
  meta: {
    type: 'problem',
    schema: false,
    docs: { description: 'each folder lists what it may import; everything else is refused' },
    messages: {
      refused: "src/{{from}} may not import src/{{to}}: {{room}}'s doors are {{doors}} (eslint.config.mjs, `doors`)",
      typesOnly: 'src/{{from}} may import only types from src/{{to}} (use import type)',
    },
  },
  create(context) {
    const { root = 'src', rooms = {} } = context.options[0] ?? {}
    const rootDir = isAbsolute(root) ? root : join(context.cwd, root)
    const file = posix(relative(rootDir, context.filename))
    if (file.startsWith('..') || file === '') return {}
    const patterns = Object.keys(rooms).map((pattern) => ({ pattern, test: matcher(pattern) }))
    const roomOf = (path) => {
      const parts = path.split('/')
      for (let n = parts.length - 1; n > 0; n--) {
        const folder = parts.slice(0, n).join('/')
        const found = patterns.find((p) => p.test.test(folder))
        if (found) return { pattern: found.pattern, folder }
      }
      return undefined
    }
    const from = roomOf(file)
    if (!from) return {}
    const doors = rooms[from.pattern].map((entry) => {
      const types = typeof entry === 'object'
      const name = types ? entry.types : entry
      return { name, types, isRoom: name in rooms, test: matcher(name) }
    })
    const doorList = doors.length === 0 ? 'none' : doors.map((d) => (d.types ? `types of ${d.name}` : d.name)).join(', ')

    function check(node, spec, typeOnly) {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return
      let target = posix(normalize(join(dirname(file), spec))).replace(/\.(tsx?|mjs|js)$/, '')
      if (target.startsWith('..')) return
      // A folder imported by name is its index (`../core` is `core/index`).
      const onDisk = join(rootDir, target)
      if (target.endsWith('/index') === false && existsSync(onDisk) && statSync(onDisk).isDirectory()) target = `${target}/index`
      const to = roomOf(target)
      if (!to || to.folder === from.folder) return
      const open = doors.filter((d) => (d.isRoom ? d.test.test(to.folder) && to.pattern === d.name : d.test.test(target)))
      if (open.some((d) => !d.types)) return
      if (open.length > 0 && typeOnly) return
      context.report({
        node,
        messageId: open.length > 0 ? 'typesOnly' : 'refused',
        data: { from: file, to: target, room: `src/${from.folder}`, doors: doorList },
      })
    }
    const allTypes = (specifiers, kind) => specifiers.length > 0 && specifiers.every((s) => s[kind] === 'type')
    return {
      ImportDeclaration: (node) => check(node, node.source.value, node.importKind === 'type' || allTypes(node.specifiers, 'importKind')),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, node.exportKind === 'type' || allTypes(node.specifiers, 'exportKind')),
      ExportAllDeclaration: (node) => check(node, node.source.value, node.exportKind === 'type'),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, false),
      TSImportType: (node) => {
        // typescript-eslint 8 names the string `source`; older versions wrapped it in `argument`.
        const literal = 'source' in node ? node.source : node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument
        if (literal?.type === 'Literal') check(node, literal.value, true)
      },
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]?.type === 'Literal') check(node, node.arguments[0].value, false)
      },
    }
  },
}

export default { meta: { name: 'doors' }, rules: { allowed } }
