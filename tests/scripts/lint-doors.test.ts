import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

// The doors in eslint.config.mjs are allow-lists: each folder of src says what it may import. Every door is probed
// here with a small in-memory file placed in that folder: the import it must refuse is reported, and the one it
// must let in is not. Loosening a door (or breaking the rule in scripts/eslint-doors.mjs) fails a probe.
const repo = resolve(__dirname, '../..')
let eslint: ESLint
let rooms: Record<string, unknown[]>

beforeAll(async () => {
  eslint = new ESLint({ cwd: repo })
  // By URL: the config is plain JavaScript without type declarations.
  const config = (await import(pathToFileURL(resolve(repo, 'eslint.config.mjs')).href)) as { doorRule: [string, { rooms: Record<string, unknown[]> }] }
  rooms = config.doorRule[1].rooms
})

/** The import problems ESLint reports for `code` placed at `file` (a path under src that need not exist). */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(repo, file) })
  return result!.messages.filter((m) => m.ruleId === 'doors/allowed' || m.ruleId === 'no-restricted-imports').map((m) => `${m.ruleId}: ${m.message}`)
}

type Probe = { in: string; code: string; why: string }
const probe = (folder: string, code: string, why: string): Probe => ({ in: `src/${folder}/__door_probe__.ts`, code, why })

// Each refused import, with the door it proves shut. `in` is the folder the probe file sits in.
const refused: Probe[] = [
  probe('contract', "import '../core'", 'the contract imports none of ours'),
  probe('core', "import '../main/secrets'", 'core reaches no host'),
  probe('core', "import '../renderer/lib/format'", 'core has no renderer'),
  probe('core/query', "import type { Table } from '@lancedb/lancedb'", 'core/query is engine-free, types included'),
  probe('core/query', "import '../namespace/dir/buildQuery'", 'core/query sits below the drivers'),
  probe('core/arrow', "import '../import/module'", 'arrow sits below the use-cases'),
  probe('core/arrow', "import '../import/readers/csv'", "arrow takes no reader of import's (the limits live at core/limits.ts)"),
  probe('core/arrow', "import '../errors'", "arrow takes only the limits from core's root kit"),
  probe('core/arrow', "import '../query'", 'arrow sits below query'),
  probe('core/namespace', "import '../import'", 'the drivers sit below the use-cases'),
  probe('core/namespace/dir', "import '../../service'", 'a driver does not reach the wiring'),
  probe('core/namespace/dir', "import '../../import/module'", 'the dir driver sits below the use-cases'),
  probe('core/namespace/dir', "import '../../import/uploads'", "the dir driver takes nothing from import (the temp folders live at core/tempFolders.ts)"),
  probe('core/namespace/dir', "import '../../settings'", "the dir driver takes only core's root kit"),
  probe('core/namespace/rest', "import '../dir/client'", 'one driver does not use another'),
  probe('core/namespace/objectStore', "import '../../arrow'", 'objectStore needs only the contract'),
  probe('core/catalog', "import '../service'", 'a use-case does not reach the wiring'),
  probe('core/connections', "import '../settings'", "a use-case takes only core's shared kit from the root"),
  probe('core/demo', "import '../namespace/rest'", 'the demo uses only the dir driver'),
  probe('core/diff', "import '../namespace/dir/queries'", "a use-case does not reach a driver's internals"),
  probe('core/export', "import '../import/module'", 'one use-case does not use another'),
  probe('core/export', "import '../import/uploads'", 'export takes nothing from import (the temp folders live at core/tempFolders.ts)'),
  probe('core/import', "import '../namespace/rest/client'", 'import writes through the dir driver only'),
  probe('core/jobs', "import '../map'", 'jobs do not know the use-cases that run them'),
  probe('core/lifecycle', "import '../namespace/dir'", 'lifecycle goes through the NamespaceClient'),
  probe('core/lifecycle', "import { connect } from '@lancedb/lancedb'", 'Lance is the dir driver\'s own'),
  probe('core/map', "import '../profile'", 'one use-case does not use another'),
  probe('core/profile', "import '../handlers'", 'handlers: types only'),
  probe('core/rowset', "import '../service'", 'a use-case does not reach the wiring'),
  probe('main', "import { CatalogService } from '../core/service'", 'main runs no core (types only)'),
  probe('main', "import type { SecretStore } from '../core/connections/model'", "main's types come from core's entry points"),
  probe('main', "import '../host/transfer'", 'main talks to the host through host/protocol only'),
  probe('main', "import '../renderer/App'", 'main does not load the renderer'),
  probe('host', "import '../core/connections/store'", 'the host uses core through its entry points'),
  probe('host', "import '../main/secrets'", 'the host process has no main'),
  probe('harness', "import '../core/namespace/dir/client'", 'the harness uses core through its entry points'),
  probe('harness', "import '../server/app'", 'the harness is not the server'),
  probe('mcp', "import '../core/namespace/dir/client'", 'the MCP server uses core through its entry points'),
  probe('mcp/tools', "import { x } from '../../core/profile/module'", "the MCP server's tools use core through its entry points"),
  probe('mcp', "import '../harness/security'", 'the MCP server is not the harness'),
  probe('mcp', "import '../main/secrets'", 'the MCP server has no main'),
  probe('server', "import { x } from '../core/lifecycle/module'", 'the server uses core through its entry points'),
  probe('server', "import '../main'", 'the server has no main'),
  probe('preload', "import { HOST_ENTRY } from '../host/protocol'", 'the preload takes only types from the host'),
  probe('preload', "import '../core'", 'the preload runs no core'),
  probe('renderer', "import '../core'", 'the renderer reaches core only through the contract'),
  probe('renderer', "import '../main'", 'the renderer reaches main only through window.catalog'),
  probe('renderer', "import './features/tree/treeModel'", "App enters a feature by its index"),
  probe('renderer/shell', "import '../features/tree/treeModel'", "shell/ enters a feature by its index"),
  probe('renderer/shell', "import '../App'", 'shell/ does not import App'),
  probe('renderer/queries', "import '../features/tree'", 'queries/ import no feature'),
  probe('renderer/queries', "import '../shell/AppFrame'", 'queries/ import no shell'),
  probe('renderer/features/table', "import '../../shell/AppFrame'", 'features may not import shell/'),
  probe('renderer/features/table', "import { App } from '../../App'", 'features may not import App'),
  probe('renderer/features/table', "import { MapPanel } from '../map'", 'the table view takes its panels from the registry, not from a feature'),
  probe('renderer/features/table/gallery', "import { SummaryPanel } from '../../profile'", 'nor does any file of the table feature'),
  probe('renderer/features/table', "import { LifecyclePanel } from '../lifecycle'", 'the lifecycle panels are contributions too'),
  probe('renderer/features/table', "import { ExportSheet } from '../export'", 'so is the export sheet'),
  probe('renderer/features/table', "import '../tree/treeModel'", "another feature is entered by its index"),
  probe('renderer/features/table/grid', "import '../../../shell/MainContent'", "a feature's subfolder is held like the feature"),
  probe('renderer/components', "import '../features/tree'", 'the shared kit imports no feature'),
  probe('renderer/components', "import '../api'", 'components do not call the API'),
  probe('renderer/lib', "import '../components/Modal'", 'lib sits below components'),
  probe('renderer/api', "import '../queries/keys'", 'the api client sits below the queries'),
  probe('renderer/styles', "import '../lib/format'", 'styles import nothing'),
]

// The same door shut whatever the form of the import.
const forms: Probe[] = [
  probe('renderer/features/table', "export { AppFrame } from '../../shell/AppFrame'", 're-export'),
  probe('renderer/features/table', "export * from '../../shell/AppFrame'", 're-export of everything'),
  probe('renderer/features/table', "export * as frame from '../../shell/AppFrame'", 'namespace re-export'),
  probe('renderer/features/table', "void import('../../shell/AppFrame')", 'dynamic import()'),
  probe('renderer/features/table', "export type Frame = typeof import('../../shell/AppFrame')", 'import() in a type'),
  probe('renderer/features/table', "import type { AppFrame } from '../../shell/AppFrame'", 'import type'),
  probe('server', "const m = require('../core/lifecycle/module'); void m", 'require()'),
]

// Each let in: a refusal above must come from its door, not from a rule that refuses everything.
const letIn: Probe[] = [
  probe('core', "import '../core/namespace/dir'", 'the wiring reaches the drivers'),
  probe('core/query', "import '../arrow'; import '../../contract'", 'query stands on arrow and the contract'),
  probe('core/arrow', "import '../limits'; import '../../contract'", 'arrow: the decompression limits and the contract'),
  probe('core/namespace', "import './dir'; import './rest'", 'the index registers the drivers'),
  probe('core/namespace/dir', "import '../../query/validate'; import '../../tempFolders'; import '../../procStat'; import '../objectStore'; import { connect } from '@lancedb/lancedb'", 'the dir driver (and Lance)'),
  probe('core/namespace/rest', "import '../../query/window'; import '../client'; import '../../redact'", 'the rest driver'),
  probe('core/connections', "import '../namespace/dir'; import '../namespace/rest'; import '../namespace/objectStore'", 'connections open catalogs with the drivers'),
  probe('core/lifecycle', "import '../jobs'; import '../namespace/client'; import '../errors'", 'a use-case'),
  probe('core/export', "import '../tempFolders'; import '../limits'", "a use-case: core's root kit"),
  probe('core/profile', "import type { Handlers } from '../handlers'", 'handlers as types'),
  probe('main', "import type { CatalogService } from '../core/service'; import type { SecretStore } from '../core'; import { HOST_ENTRY } from '../host/protocol'", 'main: types of core, the host protocol'),
  probe('host', "import { SettingsFile } from '../core'; import { CatalogService } from '../core/service'; import '../core/arrow'", "the host: core's entry points"),
  probe('harness', "import '../core/namespace'; import '../core/query'", "the harness: core's entry points"),
  probe('mcp', "import '../core/service'; import '../core/arrow'; import '../core/namespace'", "the MCP server: core's entry points"),
  probe('server', "import '../core/namespace'; import '../core/arrow'; import '../contract'", "the server: core's entry points"),
  probe('preload', "import type { PortCall } from '../host/protocol'; import type { Method } from '../contract'", 'the preload: types'),
  probe('renderer', "import './shell/AppFrame'; import './features/table'; import './styles/base.css'", 'App: shell, feature indexes, styles'),
  probe('renderer/shell', "import '../features/tree'; import '../queries/keys'; import '../components/Modal'", 'shell: feature indexes, queries, kit'),
  probe('renderer/queries', "import '../api'; import '../lib/format'", 'queries: api, lib'),
  probe('renderer/features/table', "import '../tree'; import '../../queries/keys'; import '../../components/Modal'; import '../../lib/format'; import '../../api'; import './grid/viewport'; void import('./TableView')", 'a feature'),
  probe('renderer/components', "import '../lib/format'", 'components: lib'),
]

describe('lint doors (eslint.config.mjs: each folder lists what it may import)', () => {
  it.each(refused.map((p) => [`${p.in.replace('/__door_probe__.ts', '')}: ${p.code}`, p] as const))('refuses %s', async (_, p) => {
    expect(await problems(p.in, p.code), p.why).toHaveLength(1)
  })

  it.each(forms.map((p) => [p.why, p] as const))('checks a %s', async (_, p) => {
    const found = await problems(p.in, p.code)
    expect(found, p.code).toHaveLength(1)
    expect(found[0]).toMatch(/doors\/allowed/)
  })

  it.each(letIn.map((p) => [p.why, p] as const))('lets in %s', async (_, p) => {
    expect(await problems(p.in, p.code), p.code).toEqual([])
  })

  it('probes a refusal in every folder the table lists', () => {
    const probed = new Set(refused.map((p) => p.in.replace(/^src\//, '').replace('/__door_probe__.ts', '')))
    const unprobed = Object.keys(rooms).filter((room) => ![...probed].some((folder) => folder === room || new RegExp(`^${room.replace('*', '[^/]+')}$`).test(folder)))
    expect(unprobed).toEqual([])
  })

  it('names the folder and its doors in the refusal', async () => {
    const [message] = await problems('src/renderer/features/tree/__door_probe__.ts', "import '../../shell/AppFrame'")
    expect(message).toContain('src/renderer/features/tree/__door_probe__.ts may not import src/renderer/shell/AppFrame')
    expect(message).toContain('renderer/features/*/index')
  })
})
