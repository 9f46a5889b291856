#!/usr/bin/env node
// `prestart` / `predev`: run Electron's own installer (node_modules/electron/install.js), which downloads the
// Electron binary on first use. When that download fails the installer prints a bare `TypeError: fetch failed`
// stack; this wrapper says instead what failed, why (the network error underneath) and what to do.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const here = dirname(fileURLToPath(import.meta.url))
const installer = join(dirname(require.resolve('electron/package.json')), 'install.js')
const causeHook = join(here, 'install-electron-cause.cjs')
const command = (process.env.npm_lifecycle_event ?? 'prestart').replace(/^pre/, '')

function electronVersion() {
  try {
    return JSON.parse(readFileSync(join(dirname(installer), 'package.json'), 'utf8')).version ?? '?'
  } catch {
    return '?'
  }
}

/** The installer's error, reduced to one line per error in its cause chain (from our hook's marker lines). */
function reasonFrom(stderr) {
  const causes = [...stderr.matchAll(/^\[install-electron cause\] (.*)$/gm)].map((match) => match[1])
  const first = stderr
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('at ') && !line.startsWith('[install-electron cause]'))
  return [first ?? 'the installer exited without a message', ...causes].join(' — ')
}

function advice(reason) {
  const mirror = process.env.ELECTRON_MIRROR
  const lines = [
    `npm ${command}: could not download the Electron binary (electron ${electronVersion()} for ${process.platform}-${process.arch}).`,
    `  why: ${reason}`,
    mirror ? `  (downloading from ELECTRON_MIRROR=${mirror})` : '  (downloading from github.com/electron/electron/releases)',
    '  what to do:',
    '    - behind a proxy: HTTPS_PROXY=http://<proxy>:<port> ELECTRON_GET_USE_PROXY=1 npm ' + command,
    '    - from a mirror:  ELECTRON_MIRROR=https://npmmirror.com/mirrors/electron/ npm ' + command,
    '    - without Electron, in a browser: npm run harness -- --root <catalog dir>  (prints a URL to open)',
  ]
  return lines.join('\n')
}

const child = spawn(process.execPath, ['--require', causeHook, installer], { stdio: ['ignore', 'inherit', 'pipe'] })
let stderr = ''
child.stderr.setEncoding('utf8')
child.stderr.on('data', (chunk) => {
  stderr += chunk
})
child.on('error', (error) => {
  console.error(advice(`could not run the installer: ${error.message}`))
  process.exit(1)
})
child.on('close', (code, signal) => {
  if (code === 0) {
    process.stderr.write(stderr)
    return
  }
  console.error(advice(signal ? `the installer was stopped by ${signal}` : reasonFrom(stderr)))
  process.exit(code || 1)
})
