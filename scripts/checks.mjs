#!/usr/bin/env node
/**
 * `npm run checks`: the four TypeScript programs and eslint, side by side. They share nothing (eslint here is not
 * type-aware, so it builds no TS program of its own), and eslint is single-threaded, so one after the other left a
 * core idle. No runner package needed: this is spawn, a queue and a summary. Arguments choose steps by name:
 * `npm run typecheck` is `node scripts/checks.mjs typecheck`.
 *
 * Output stays readable: each step's output is held back and printed whole, under its own header, when it ends.
 * Any failure names the step(s) and exits 1 (after the others finish, so one run shows every error).
 *
 * CHECKS_JOBS sets how many run at once (default: the cores the machine offers, at least 2).
 */
import { spawn } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
/** A package's command-line entry, from its package.json `bin` (eslint's exports hide bin/ from require.resolve). */
function bin(pkg, name = pkg) {
  const manifest = require.resolve(`${pkg}/package.json`)
  const { bin: entries } = require(manifest)
  return join(dirname(manifest), typeof entries === 'string' ? entries : entries[name])
}
// TypeScript 7 (the native compiler, installed as `typescript-native`) checks the programs: the same errors as 5.9 on
// this code, in ~30 s of CPU instead of ~113. The `typescript` package (5.9) stays for typescript-eslint, whose
// parser needs the JavaScript API that 7.0 does not have.
const tsc = bin('typescript-native', 'tsc')
// 7.0 colours its report whenever FORCE_COLOR is set, even to 0: say it outright, colour only on a terminal.
const pretty = ['--pretty', String(Boolean(process.stdout.isTTY))]
const eslint = bin('eslint')

// Longest first, so the tail is a short one (measured quiet, alone: lint 44 s; node 7, e2e 5, web 4, renderer-tests 3).
const steps = [
  { name: 'lint', args: [eslint, '.', '--max-warnings', '0'] },
  { name: 'typecheck node', args: [tsc, '-p', 'tsconfig.node.json', ...pretty] },
  { name: 'typecheck e2e', args: [tsc, '-p', 'tsconfig.e2e.json', ...pretty] },
  { name: 'typecheck web', args: [tsc, '-p', 'tsconfig.web.json', ...pretty] },
  { name: 'typecheck renderer-tests', args: [tsc, '-p', 'tsconfig.renderer-tests.json', ...pretty] },
]
const only = process.argv.slice(2)
const chosen = only.length ? steps.filter((step) => only.some((name) => step.name.includes(name))) : steps
const jobs = Math.max(2, Number(process.env.CHECKS_JOBS) || availableParallelism())

function run(step) {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, step.args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0') } })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    const finish = (code, error) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1)
      const ok = code === 0
      process.stdout.write(`\n── ${step.name}: ${ok ? 'ok' : `FAILED (${error ?? `exit ${code}`})`} in ${seconds} s\n`)
      if (output.trim()) process.stdout.write(output.endsWith('\n') ? output : `${output}\n`)
      resolve({ step, ok })
    }
    child.on('error', (error) => finish(null, error.message))
    child.on('close', (code, signal) => finish(code, signal ? `signal ${signal}` : undefined))
  })
}

const queue = [...chosen]
const results = []
await Promise.all(
  Array.from({ length: Math.min(jobs, queue.length) }, async () => {
    for (let step = queue.shift(); step; step = queue.shift()) results.push(await run(step))
  }),
)
const failed = results.filter((result) => !result.ok).map((result) => result.step.name)
if (failed.length) {
  process.stdout.write(`\nchecks FAILED: ${failed.join(', ')}\n`)
  process.exit(1)
}
process.stdout.write(`\nchecks ok: ${results.map((result) => result.step.name).join(', ')}\n`)
