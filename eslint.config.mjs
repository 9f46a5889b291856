import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import { readdirSync } from 'node:fs'

// Imports point one way: renderer, preload -> contract; main, harness, server -> core -> contract.
const noElectronReactDom = [
  { group: ['electron', 'electron/*'], message: 'core/contract/server/harness stay free of Electron' },
  { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'core/contract/server/harness stay free of React' },
]
// The server and the harness use core through its entry points only; the rest of core is its own business.
const coreEntryPoints = ['index', 'service', 'namespace', 'query', 'arrow']
const onlyCoreEntryPoints = {
  group: ['**/core/*', '**/core/*/**', ...coreEntryPoints.map((entry) => `!**/core/${entry}`)],
  message: `use core through its entry points: ${coreEntryPoints.map((entry) => (entry === 'index' ? 'core' : `core/${entry}`)).join(', ')}`,
}
const noAppLayers = (...layers) =>
  layers.map((layer) => ({ group: [`**/${layer}`, `**/${layer}/**`], message: `nothing imports src/${layer}` }))

const rendererPatterns = [
  { group: ['electron'], message: 'the renderer talks to main only through window.catalog' },
  ...noAppLayers('core', 'main', 'preload', 'harness', 'server'),
]
// Every folder under src/renderer/features is a feature; another feature's files are reached only through its index.
const features = readdirSync(new URL('./src/renderer/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const intoFeature = (others) => ({
  regex: `^(\\.{1,2}/)+(features/)?(${others.join('|')})/.+`,
  message: "import another feature only from its index.ts (e.g. '../tree', not '../tree/treeModel')",
})

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
            ...noAppLayers('core', 'main', 'preload', 'renderer', 'harness', 'server'),
            { regex: '^(?!zod$|\\.)', allowTypeImports: true, message: 'the contract loads only zod at run time (use import type)' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/core/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...noElectronReactDom, ...noAppLayers('main', 'preload', 'renderer', 'harness', 'server')] }] },
  },
  {
    files: ['src/server/**', 'src/harness/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...noElectronReactDom, ...noAppLayers('main', 'preload', 'renderer'), onlyCoreEntryPoints] }] },
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
    // Main only orchestrates (window, menus, dialogs, keychain): the core runs in the catalog host process, so main
    // takes only types from core, and from the host only what they say to each other (src/host/protocol.ts).
    files: ['src/main/**'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noAppLayers('preload', 'renderer', 'harness', 'server'),
            { regex: '^\\.\\./core(/|$)', allowTypeImports: true, message: 'main runs no core: it lives in the catalog host process (src/host); import types only' },
            { regex: '^\\.\\./host/(?!protocol$)', message: 'main talks to the catalog host through src/host/protocol.ts only' },
          ],
        },
      ],
    },
  },
  {
    // The catalog host process (src/host): Node only, no Electron (a utility process has none of main's API), and core
    // through its entry points, as the harness and the server use it.
    files: ['src/host/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...noElectronReactDom, ...noAppLayers('main', 'preload', 'renderer', 'harness', 'server'), onlyCoreEntryPoints] }] },
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
            ...noAppLayers('core', 'main', 'renderer', 'harness', 'server'),
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
  // Rooms with doors: a feature is entered through its index.ts; the shared kit (components, lib) and the api
  // client sit below every feature and import none.
  ...features.map((feature) => ({
    files: [`src/renderer/features/${feature}/**`],
    rules: { 'no-restricted-imports': ['error', { patterns: [...rendererPatterns, intoFeature(features.filter((f) => f !== feature))] }] },
  })),
  {
    files: ['src/renderer/*.ts', 'src/renderer/*.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...rendererPatterns, intoFeature(features)] }] },
  },
  {
    files: ['src/renderer/components/**', 'src/renderer/lib/**', 'src/renderer/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [...rendererPatterns, { regex: '(^|/)features(/|$)', message: 'the shared kit and the api client import no feature (features import them)' }] },
      ],
    },
  },
)
