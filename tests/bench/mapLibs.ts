/**
 * The map bench's drawing-library comparison (issue #22: "choose by measurement"): our scatter, regl-scatterplot
 * and deck.gl's ScatterplotLayer beside a bare WebGL draw, each in a fresh blank page of the same Chromium, the
 * same points and canvas size (tests/bench/vanilla/scatterLibs.ts, bundled here with esbuild: the libraries are
 * bench-only dev dependencies). Rounds rotate the order so none always runs first on a loaded machine.
 */
import { build } from 'esbuild'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from '@playwright/test'
import { median } from './lib'

export const LIBS = ['bare', 'ours', 'density', 'density2d', 'regl', 'deck'] as const
export type Lib = (typeof LIBS)[number]

export const LIB_NAMES: Record<Lib, string> = {
  bare: 'bare WebGL 1 draw (one buffer, GL points)',
  ours: 'our GL-points scatter (the app\'s drawer where WebGL runs on a GPU; src/renderer/features/map/glPoints.ts)',
  density: 'our density image as a WebGL texture on a quad (bench/vanilla/densityTexture.ts)',
  density2d: 'our density image by 2D putImageData (features/map/densityCanvas.ts, the app\'s)',
  regl: 'regl-scatterplot',
  deck: 'deck.gl ScatterplotLayer',
}

export interface LibMeasure {
  /** First draw of every round (ms). */
  firsts: number[]
  /** Zoom frames of every round (ms). */
  frames: number[]
  /** Pixels the last frame coloured (every round draws the same picture). */
  drawn: number
}

export interface LibComparison {
  results: Record<Lib, LibMeasure>
  /** Minified bundle size per library page (bytes), the page's own code and our scatter included. */
  bytes: number
  versions: Record<string, string>
}

async function pageScript(): Promise<string> {
  const out = await build({ entryPoints: [join(__dirname, 'vanilla/scatterLibs.ts')], bundle: true, minify: true, format: 'iife', write: false, logLevel: 'error' })
  return out.outputFiles[0]!.text
}

function versionOf(pkg: string): string {
  return (JSON.parse(readFileSync(join(__dirname, '..', '..', 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version
}

/** The drawers BENCH_MAP_LIBS names (comma-separated; default all), the bare draw always among them (the ratios' base). */
export function chosenLibs(): Lib[] {
  const named = process.env.BENCH_MAP_LIBS?.split(',').map((l) => l.trim())
  if (!named) return [...LIBS]
  const unknown = named.filter((l) => !(LIBS as readonly string[]).includes(l))
  if (unknown.length) throw new Error(`BENCH_MAP_LIBS: unknown drawer ${unknown.join(', ')} (known: ${LIBS.join(', ')})`)
  return LIBS.filter((l) => l === 'bare' || named.includes(l))
}

export async function compareLibraries(browser: Browser, o: { points: number; width: number; height: number; frames: number; rounds: number; libs: Lib[]; log(message: string): void }): Promise<LibComparison> {
  const script = await pageScript()
  const results = Object.fromEntries(LIBS.map((lib): [Lib, LibMeasure] => [lib, { firsts: [], frames: [], drawn: 0 }])) as Record<Lib, LibMeasure>
  for (let round = 0; round < o.rounds; round++) {
    const order = o.libs.map((_, i) => o.libs[(i + round) % o.libs.length]!)
    for (const lib of order) {
      o.log(`map libraries: round ${round + 1}/${o.rounds}, ${lib}`)
      const page = await browser.newPage({ viewport: { width: o.width + 40, height: o.height + 40 } })
      try {
        await page.setContent('<!doctype html><meta charset="utf-8"><body style="margin:0">')
        await page.addScriptTag({ content: script })
        const r = (await page.evaluate(`window.scatterLibs.${lib}(${o.points}, ${o.width}, ${o.height}, ${o.frames})`)) as { first: number; frames: number[]; drawn: number }
        results[lib].firsts.push(r.first)
        results[lib].frames.push(...r.frames)
        results[lib].drawn = r.drawn
      } finally {
        await page.close()
      }
    }
  }
  return { results, bytes: script.length, versions: { 'regl-scatterplot': versionOf('regl-scatterplot'), 'deck.gl': versionOf('@deck.gl/core') } }
}

/** Table rows: per library the first draw and zoom frame medians and their ratios to the bare draw. */
export function libraryRows(c: LibComparison): (string | number)[][] {
  const bare = c.results.bare
  return LIBS.filter((lib) => c.results[lib].firsts.length > 0).map((lib) => {
    const r = c.results[lib]
    const first = median(r.firsts)
    const frame = median(r.frames)
    const name = lib === 'regl' ? `${LIB_NAMES[lib]} ${c.versions['regl-scatterplot']}` : lib === 'deck' ? `${LIB_NAMES[lib]} ${c.versions['deck.gl']}` : LIB_NAMES[lib]
    return [
      name,
      first.toFixed(0),
      lib === 'bare' ? '—' : `${(first / median(bare.firsts)).toFixed(2)}×`,
      frame.toFixed(1),
      lib === 'bare' ? '—' : `${(frame / median(bare.frames)).toFixed(2)}×`,
      r.drawn,
    ]
  })
}
