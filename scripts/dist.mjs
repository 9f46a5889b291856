#!/usr/bin/env node
// `npm run dist`: build the app (electron-vite) and package it with electron-builder for this platform (Linux:
// AppImage and deb, macOS: dmg, Windows: NSIS; config in package.json "build"). Extra arguments go to
// electron-builder (e.g. `npm run dist -- --linux deb`), except `--prebuilt`: package the existing out/ (from
// `npm run build`) without building again. electron-builder downloads Electron and its packaging tools
// on first use; when that fails it prints a bare network error and a stack — this wrapper says instead what
// failed, why and what to do, and exits 1.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const electronVersion = JSON.parse(readFileSync(join(dirname(require.resolve('electron/package.json')), 'package.json'), 'utf8')).version
const builderCli = join(dirname(require.resolve('electron-builder/package.json')), 'cli.js')
const viteCli = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js')

/**
 * electron-builder's last word when a build fails: "⨯ <message>  failedTask=build", or its plain logger's
 * `<message> {⏎ failedTask: …` (see reasonFrom). It has cleaned up by then, but its process lives on for 30 s:
 * @electron/get arms a progress-bar timer before a download and clears it only when the download succeeds. So once
 * that line is out, the wrapper gives it a moment and then ends it.
 */
const FAILED_TASK = /⨯ .*failedTask=|^\S.* \{\s*\n\s*failedTask:/m
const FAILED_GRACE_MS = 1_000

/** Run a node script, showing its output as it comes and keeping it. */
function run(script, args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    let failed = false
    for (const [stream, sink] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      stream.setEncoding('utf8')
      stream.on('data', (chunk) => {
        output += chunk
        sink.write(chunk)
        if (!failed && FAILED_TASK.test(output)) {
          failed = true
          setTimeout(() => child.kill(), FAILED_GRACE_MS).unref()
        }
      })
    }
    child.on('error', (error) => resolve({ code: 1, output: `${output}\n${error.message}` }))
    // Ended by us after its failure line: it failed (exit 1), it was not stopped from outside.
    child.on('close', (code, signal) => resolve({ code: code ?? 1, output: signal && !failed ? `${output}\nstopped by ${signal}` : output }))
  })
}

const NETWORK = /ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|getaddrinfo|fetch failed|socket hang up|certificate|status code (403|404|407|5\d\d)/i

/** electron-builder's error line ("⨯ <message>  failedTask=…"), without the stack. */
function reasonFrom(output) {
  const failed = output.match(/⨯\s+(.*?)(?:\s{2,}failedTask=|\s+stackTrace=|$)/m)
  if (failed) return failed[1].trim()
  // Its plain logger (used under NODE_ENV=test, for example) prints the error as `message { failedTask: … }`.
  const plain = output.match(/^(\S.*?) \{\s*\n\s*failedTask:/m)
  if (plain) return plain[1].trim()
  const line = output
    .split('\n')
    .map((l) => l.trim())
    .reverse()
    .find((l) => l !== '' && !l.startsWith('at '))
  return line ?? 'electron-builder exited without a message'
}

const target = `${process.platform}-${process.arch}`
const prebuilt = process.argv.includes('--prebuilt')
const builderArgs = process.argv.slice(2).filter((arg) => arg !== '--prebuilt')
const build = prebuilt ? { code: 0 } : await run(viteCli, ['build'])
if (build.code !== 0) {
  console.error(`\nnpm run dist: the app did not build (electron-vite build exited with ${build.code}); nothing was packaged.`)
  console.error('  what to do: fix the build error above (npm run build shows the same), then run npm run dist again')
  process.exit(1)
}

const packaged = await run(builderCli, ['--publish', 'never', ...builderArgs])
if (packaged.code === 0) {
  console.log('\nnpm run dist: the packages are in dist/ (unsigned: the OS may warn when they are first opened).')
  process.exit(0)
}

const reason = reasonFrom(packaged.output)
const lines = NETWORK.test(packaged.output)
  ? [
      `npm run dist: electron-builder could not download what it packages the app with (Electron ${electronVersion} for ${target}, and its packaging tools), so no package was built.`,
      `  why: ${reason}`,
      process.env.ELECTRON_MIRROR ? `  (downloading Electron from ELECTRON_MIRROR=${process.env.ELECTRON_MIRROR})` : '  (downloading from github.com/electron/electron/releases and github.com/electron-userland/electron-builder-binaries)',
      '  what to do:',
      '    - on a machine with internet access, run npm run dist again (CI builds every package: .github/workflows/ci.yml)',
      '    - behind a proxy: HTTPS_PROXY=http://<proxy>:<port> npm run dist',
      '    - from mirrors:   ELECTRON_MIRROR=<electron mirror> ELECTRON_BUILDER_BINARIES_MIRROR=<electron-builder-binaries mirror> npm run dist',
      '    - with an Electron you already have (its unpacked dist folder): npm run dist -- -c.electronDist=<path>',
    ]
  : [
      `npm run dist: electron-builder could not build the packages for ${target} (it exited with ${packaged.code}).`,
      `  why: ${reason}`,
      '  what to do: read electron-builder\'s output above; the packaging config is the "build" field of package.json',
    ]
console.error(`\n${lines.join('\n')}`)
process.exit(1)
