import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { fileURLToPath } from 'node:url'
import doors from './scripts/eslint-doors.mjs'

// Doors: per folder of src, what its files MAY import from our other folders; an import that its folder does not
// list is refused (scripts/eslint-doors.mjs: static, dynamic `import()`, re-exports and `import type` alike). A file
// belongs to the deepest folder listed here, and its own folder is always open. An entry is a folder listed here (any
// file in it), one file (`core/query/index`: that file only), or `{ types: … }` (type-only imports). `*` is one folder
// name. Packages are held apart, by `no-restricted-imports` below. tests/scripts/lint-doors.test.ts probes every door:
// do not relax one without a reason in words here.
const coreEntryPoints = ['core/index', 'core/service', 'core/namespace/index', 'core/query/index', 'core/arrow/index']
// core's own root files that the layers below its wiring (service.ts, index.ts) share.
const coreKit = ['core/errors', 'core/redact', 'core/procStat', 'core/sideCache', 'core/limits', 'core/tempFolders', 'core/atomicFile', { types: 'core/handlers' }]
// The use-cases: each a module that service.ts wires into the contract's methods.
const useCases = ['catalog', 'connections', 'demo', 'diff', 'export', 'import', 'jobs', 'lifecycle', 'map', 'profile', 'rowset']
const useCase = (extra = []) => ['contract', ...coreKit, 'core/arrow', 'core/query', 'core/namespace', 'core/jobs', ...extra]
const featureDoors = ['contract', 'renderer/queries', 'renderer/features/*/index', 'renderer/components', 'renderer/lib', 'renderer/api']
const doorTable = {
  contract: [],
  // core: the wiring (service.ts, index.ts) reaches every module; below it, use-cases → namespace drivers → query → arrow.
  core: ['contract', 'core/arrow', 'core/query', 'core/namespace', 'core/namespace/dir', 'core/namespace/rest', ...useCases.map((u) => `core/${u}`)],
  // Arrow decoding holds compressed buffers to the same decompression limits as the import readers (core/limits.ts).
  'core/arrow': ['contract', 'core/limits'],
  // Engine-free, as all of core outside namespace/dir (no lancedb: no-restricted-imports below).
  'core/query': ['contract', 'core/arrow'],
  // The drivers' shared face (client, connect, path, errors, versions); its index registers the drivers.
  'core/namespace': ['contract', 'core/namespace/dir', 'core/namespace/rest', 'core/namespace/objectStore'],
  // Its manifest stages in the app's temp folders (core/tempFolders.ts), whose owners procStat tells alive or gone.
  'core/namespace/dir': ['contract', 'core/errors', 'core/procStat', 'core/tempFolders', 'core/arrow', 'core/query', 'core/namespace', 'core/namespace/objectStore'],
  'core/namespace/rest': ['contract', 'core/errors', 'core/redact', 'core/arrow', 'core/query', 'core/namespace'],
  'core/namespace/objectStore': ['contract'],
  ...Object.fromEntries(useCases.map((u) => [`core/${u}`, useCase()])),
  // Saving a connection opens or creates a catalog with the drivers' own openers and probes.
  'core/connections': useCase(['core/namespace/dir', 'core/namespace/rest', 'core/namespace/objectStore']),
  'core/demo': useCase(['core/namespace/dir']),
  // Imports write through the directory driver's staging and journal (crash-safe publication).
  'core/import': useCase(['core/namespace/dir']),
  // The hosts use core through its entry points. Main only orchestrates (window, menus, dialogs, keychain): core runs
  // in the catalog host process, so main takes only types from core, and from the host what they say to each other.
  // One exception, core/atomicFile: a leaf of node:fs alone, so main's own files (window-state.json, the secrets)
  // are written whole-or-nothing, in order, by the same code as the host's settings.
  main: ['contract', 'host/protocol', 'core/atomicFile', ...coreEntryPoints.map((types) => ({ types }))],
  host: ['contract', ...coreEntryPoints],
  harness: ['contract', ...coreEntryPoints],
  server: ['contract', ...coreEntryPoints],
  // The MCP server (npm run mcp) is one more host of the contract: the same doors as the harness and the server.
  mcp: ['contract', ...coreEntryPoints],
  preload: ['contract', { types: 'host/protocol' }],
  // The renderer talks to the rest only through the contract (window.catalog). A feature is entered by its index.ts.
  renderer: ['contract', 'renderer/shell', 'renderer/styles', ...featureDoors],
  'renderer/shell': featureDoors,
  'renderer/queries': ['contract', 'renderer/api', 'renderer/lib'],
  // The table view reads its panels, sheets and header strip from a registry (components/dock/registry.ts, filled by
  // renderer/panels.ts): it enters none of the features behind them, so a new panel never changes it (#38).
  'renderer/features/table': [
    ...featureDoors.filter((door) => door !== 'renderer/features/*/index'),
    ...['actions', 'connections', 'import', 'jobs', 'links', 'navigation', 'tree'].map((feature) => `renderer/features/${feature}/index`),
  ],
  'renderer/features/*': featureDoors,
  'renderer/components': ['contract', 'renderer/lib'],
  'renderer/lib': ['contract'],
  'renderer/api': ['contract'],
  'renderer/styles': [],
}
// The root by the config's own place, so that ESLint started from another folder checks the same doors.
export const doorRule = ['error', { root: fileURLToPath(new URL('./src', import.meta.url)), rooms: doorTable }]

// Packages: core, contract, server, harness and host load no Electron or React.
const noElectronReactDom = [
  { group: ['electron', 'electron/*'], message: 'core/contract/server/harness stay free of Electron' },
  { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'core/contract/server/harness stay free of React' },
]
const rendererPatterns = [{ group: ['electron'], message: 'the renderer talks to main only through window.catalog' }]

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'tests/bench/results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-empty-object-type': 'off',
    },
  },
  {
    // The contract's only run-time dependency is zod: the renderer and core both load it. Other packages
    // (apache-arrow for its types) may be imported with `import type` alone.
    files: ['src/contract/**'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noElectronReactDom,
            { regex: '^(?!zod$|\\.)', allowTypeImports: true, message: 'the contract loads only zod at run time (use import type)' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**'],
    plugins: { doors },
    rules: { 'doors/allowed': doorRule },
  },
  {
    files: ['src/core/**', 'src/server/**', 'src/harness/**', 'src/mcp/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: noElectronReactDom }] },
  },
  {
    // Lance is the directory driver's engine: the rest of core (query/, the use-cases, arrow/) is engine-free, and
    // reaches Lance through a NamespaceClient. Types included: a lancedb type is a lancedb dependency.
    files: ['src/core/**'],
    ignores: ['src/core/namespace/dir/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...noElectronReactDom, { group: ['@lancedb/*', 'vectordb'], message: 'Lance is used by the directory driver only (core/namespace/dir): go through its NamespaceClient' }] },
      ],
    },
  },
  {
    // A focused test left in would silently skip the rest of its file, in CI too.
    files: ['tests/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test'].map((object) => ({ object, property: 'only', message: 'no focused tests: remove .only' })),
      ],
    },
  },
  {
    // The catalog host process (src/host): Node only, no Electron (a utility process has none of main's API).
    files: ['src/host/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: noElectronReactDom }] },
  },
  {
    // A sandboxed preload's `require` loads only `electron` (and events, timers, url): any other run-time import,
    // including the contract barrel (zod), throws there and the bridge is never exposed.
    // Type-only imports vanish in the build and are fine. tests/main/preload-sandbox.test.ts checks the built file.
    files: ['src/preload/**'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!electron$|\\.)', allowTypeImports: true, message: 'the sandboxed preload can load only electron at run time (use import type)' },
            {
              regex: '^\\.\\./contract(/(?!methods$|channels$).*)?$',
              allowTypeImports: true,
              message: 'the contract pulls zod at run time; the preload imports only types from it, and method and channel names from ../contract/methods and ../contract/channels',
            },
          ],
        },
      ],
    },
  },
  {
    // A focused test (`it.only`, `test.describe.only`) left in a commit silently skips the rest of its file.
    files: ['tests/**'],
    rules: { 'no-restricted-properties': ['error', { property: 'only', message: 'no focused tests in a commit' }] },
  },
  {
    // The desktop rig's CommonJS halves: the electron stand-in (main's process) and the page half (the window).
    files: ['tests/desktop/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node, ...globals.browser } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['src/renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: rendererPatterns }],
    },
  },
)
