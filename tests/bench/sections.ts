import type { Section } from './lib'

/**
 * Every benchmark section `npm run bench` knows, in the order they run. To add one, write
 * `bench/<name>.ts` exporting `section: Section` and add a line here. `npm run bench -- <name> …`
 * runs only the named sections.
 */
export const sections: Record<string, () => Promise<Section>> = {
  dir: async () => (await import('./dir')).section,
  import: async () => (await import('./import')).section,
  ui: async () => (await import('./ui')).section,
  rest: async () => (await import('./rest')).section,
  query: async () => (await import('./query')).section,
  export: async () => (await import('./export')).section,
  lifecycle: async () => (await import('./lifecycle')).section,
  diff: async () => (await import('./diff')).section,
  objstore: async () => (await import('./objstore')).section,
  profile: async () => (await import('./profile')).section,
  'objstore-server': async () => (await import('./objstore-server')).section,
  map: async () => (await import('./map')).section,
  lasso: async () => (await import('./lasso')).section,
  umap: async () => (await import('./umap')).section,
  host: async () => (await import('./host')).section,
  sql: async () => (await import('./sql')).section,
  workbench: async () => (await import('./workbench')).section,
}
