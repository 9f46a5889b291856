import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

// Imports point one way: renderer, preload -> contract; main, harness, server -> core -> contract.
const noElectronReactDom = [
  { group: ['electron', 'electron/*'], message: 'core/contract/server/harness stay free of Electron' },
  { group: ['react', 'react-dom', 'react/*', 'react-dom/*'], message: 'core/contract/server/harness stay free of React' },
]
const noAppLayers = (...layers) =>
  layers.map((layer) => ({ group: [`**/${layer}`, `**/${layer}/**`], message: `nothing imports src/${layer}` }))

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
    rules: { 'no-restricted-imports': ['error', { patterns: [...noElectronReactDom, ...noAppLayers('main', 'preload', 'renderer')] }] },
  },
  {
    files: ['src/main/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...noAppLayers('preload', 'renderer', 'harness', 'server')] }] },
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
              regex: '^\\.\\./contract(/(?!methods$).*)?$',
              allowTypeImports: true,
              message: 'the contract pulls zod at run time; the preload imports only types from it, and method names from ../contract/methods',
            },
          ],
        },
      ],
    },
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
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['electron'], message: 'the renderer talks to main only through window.catalog' }, ...noAppLayers('core', 'main', 'preload', 'harness', 'server')] },
      ],
    },
  },
)
