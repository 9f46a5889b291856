import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
// @ts-expect-error -- a plain .mjs script without types (moduleSourceOf is what `npm run wasm` writes for a .wat).
import { moduleSourceOf } from '../../scripts/wasm.mjs'

const src = fileURLToPath(new URL('../../src', import.meta.url))

function watFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? watFiles(path) : entry.name.endsWith('.wat') ? [path] : []
  })
}

describe('WebAssembly text under src/ (npm run wasm)', () => {
  const files = watFiles(src)

  it('finds the kernels (the Summary’s vector scan, the UMAP map’s reduce)', () => {
    expect(files.map((path) => path.slice(src.length + 1)).sort()).toEqual(['core/map/reduce.wat', 'core/profile/vectorScan.wat'])
  })

  for (const path of files) {
    it(`${path.slice(src.length + 1)} is what its committed .wasm.ts holds: \`npm run wasm\` would change nothing`, async () => {
      expect(await moduleSourceOf(path)).toBe(readFileSync(path.replace(/\.wat$/, '.wasm.ts'), 'utf8'))
    })
  }
})
