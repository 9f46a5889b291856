// Electron's `utilityProcess` for the desktop rig's main process and for main's unit tests: a Node child process
// (child_process.fork, 'advanced' serialisation = structured clone) whose module sees `process.parentPort` as a
// utility process does (parent-port.cjs), and no `process.send`. Test code only; never shipped.
'use strict'
const { fork: forkChild } = require('node:child_process')
const { EventEmitter } = require('node:events')
const { constants } = require('node:os')
const { join } = require('node:path')

const PARENT_PORT = join(__dirname, 'parent-port.cjs')

/** stdio as Electron takes it ('pipe' | 'ignore' | 'inherit', or [stdin, stdout, stderr]; stdin is always ignored). */
function stdioOf(option) {
  const [_stdin, stdout, stderr] = Array.isArray(option) ? option : [option, option, option]
  return ['ignore', stdout ?? 'inherit', stderr ?? 'inherit', 'ipc']
}

class UtilityProcess extends EventEmitter {
  constructor(modulePath, args = [], options = {}) {
    super()
    this.child = forkChild(modulePath, args, {
      serialization: 'advanced',
      stdio: stdioOf(options.stdio ?? 'inherit'),
      env: options.env ?? process.env,
      execArgv: [...(options.execArgv ?? []), '--require', PARENT_PORT],
      cwd: options.cwd,
    })
    this.pid = undefined
    this.stdout = this.child.stdout ?? null
    this.stderr = this.child.stderr ?? null
    this.child.once('spawn', () => {
      this.pid = this.child.pid
      this.emit('spawn')
    })
    this.child.on('message', (message) => this.emit('message', message))
    // Electron reports one number: the exit code, or for a process ended by a signal the signal's number (a
    // SIGKILL is 9, a SIGABRT 6), and 'exit' comes once, after the process is gone.
    this.child.once('exit', (code, signal) => {
      this.pid = undefined
      this.emit('exit', code ?? (signal ? constants.signals[signal] : 0))
    })
    // A message to a process that has just ended is dropped, as Electron drops it.
    this.child.on('error', () => undefined)
  }

  postMessage(message) {
    if (!this.child.connected) return
    // structured clone refuses here, as it does in Electron (the caller sees the throw)
    this.child.send(message, (error) => {
      if (error) this.emit('send-error', error)
    })
  }

  kill() {
    return this.child.kill('SIGTERM')
  }
}

/** `utilityProcess.fork(modulePath, args, options)`. */
function fork(modulePath, args, options) {
  return new UtilityProcess(modulePath, args, options)
}

module.exports = { fork, UtilityProcess }
