/**
 * `npm run bench [-- section …]`: runs the benchmark sections listed in bench/sections.ts, prints each
 * as markdown tables and writes them to tests/bench/results/<section>.md. Sizes come from environment
 * variables documented in each section (e.g. BENCH_ROWS, BENCH_DIR); run them small while developing.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { cpus, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { markdownTable } from './lib'
import { sections } from './sections'

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'))
  const unknown = wanted.filter((name) => !(name in sections))
  if (unknown.length > 0) {
    console.error(`Unknown bench section(s): ${unknown.join(', ')}. Known: ${Object.keys(sections).join(', ')}`)
    process.exit(2)
  }
  const names = wanted.length > 0 ? wanted : Object.keys(sections)
  const dir = resolve(process.env.BENCH_DIR ?? '.tmp/bench')
  const outDir = resolve(__dirname, 'results')
  await mkdir(dir, { recursive: true })
  await mkdir(outDir, { recursive: true })
  const machine = `${new Date().toISOString()} · Node ${process.version} · ${cpus().length} cores · ${Math.round(totalmem() / 2 ** 30)} GiB`
  let failed = false
  for (const name of names) {
    const section = await sections[name]!()
    const log = (message: string) => console.error(`[bench ${name}] ${message}`)
    log(`running (cache ${dir})`)
    try {
      const report = await section.run({ dir, log })
      const markdown = [`### ${section.title}`, '', machine, '', ...report.notes.map((n) => `- ${n}`), '', ...report.tables.map(markdownTable).flatMap((t) => [t, ''])].join('\n')
      console.log(markdown)
      await writeFile(join(outDir, `${name}.md`), markdown)
      log(`written to tests/bench/results/${name}.md`)
    } catch (error) {
      failed = true
      console.error(`[bench ${name}] failed:`, error)
    }
  }
  if (failed) process.exit(1)
}

void main()
