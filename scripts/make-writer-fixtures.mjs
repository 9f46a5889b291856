#!/usr/bin/env node
/**
 * Writes the small catalogs under tests/fixtures/writers/<writer>/ that the legacy-table tests open: one table
 * `items` written by each LanceDB release a user may still run (vectordb 0.4 writes legacy v1 data files; the
 * others 2.0 or 2.2), with four versions so What changed has something to compare.
 *
 * Each writer is installed from the npm registry into its own temporary folder (`npm install --prefix`), never
 * into this project's package.json: `node scripts/make-writer-fixtures.mjs [writer…]` (default: all).
 * The fixtures are committed; run this only to make them again.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Each writer: the packages to install and the module to load (both APIs take the same calls used here). */
const WRITERS = {
  'vectordb-0.4.20': { packages: ['vectordb@0.4.20'], module: 'vectordb' },
  'vectordb-0.21.2': { packages: ['vectordb@0.21.2', '@lancedb/vectordb-linux-x64-gnu@0.21.2'], module: 'vectordb' },
  'lancedb-0.22.3': { packages: ['@lancedb/lancedb@0.22.3'], module: '@lancedb/lancedb' },
  'lancedb-0.39.0': { packages: ['@lancedb/lancedb@0.39.0'], module: '@lancedb/lancedb' },
}

/** Row `i`: an integer key, a string, a float and a 4-d vector (every value a function of `i`). */
export function fixtureRow(i) {
  return { id: i, name: `item-${String((i * 37) % 1000).padStart(3, '0')}`, score: Math.round(((i * 7919) % 1000) / 10) / 10, vector: [i % 7, (i * 3) % 11, (i * 5) % 13, i % 2] }
}

async function write(writer, spec) {
  const prefix = mkdtempSync(join(tmpdir(), `writer-${writer}-`))
  try {
    execFileSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', ...spec.packages], { stdio: 'inherit' })
    const lib = createRequire(join(prefix, 'node_modules', 'x.js'))(spec.module)
    const dir = join(root, 'tests', 'fixtures', 'writers', writer)
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    const db = await lib.connect(dir)
    const rows = (from, to) => Array.from({ length: to - from }, (_, k) => fixtureRow(from + k))
    // Version 1: rows 0–299. Version 2: rows 300–319 added. Version 3: every row whose id ends in 7 deleted.
    // Version 4: the score of rows 0–4 set to 99.5.
    const table = await db.createTable('items', rows(0, 300))
    await table.add(rows(300, 320))
    await table.delete('id % 10 = 7')
    await table.update({ where: 'id < 5', values: { score: 99.5 } })
    console.log(`${writer}: ${await table.countRows()} rows, version ${await table.version?.() ?? '?'} in ${dir}`)
  } finally {
    rmSync(prefix, { recursive: true, force: true })
  }
}

const asked = process.argv.slice(2)
for (const [writer, spec] of Object.entries(WRITERS)) if (asked.length === 0 || asked.includes(writer)) await write(writer, spec)
