// Electron's `utilityProcess` for the desktop rig's main process and for main's unit tests: a Node child process
// (child_process.fork, 'advanced' serialisation = structured clone) whose module sees `process.parentPort` as a
// utility process does (parent-port.cjs), and no `process.send`. MessagePortMain ends can be transferred to it
// (message-ports.cjs); large messages travel as Mojo's do, through shared memory (big-messages.cjs). Test code
// only; never shipped.
'use strict'
const { fork: forkChild } = require('node:child_process')
const { EventEmitter } = require('node:events')
const { constants } = require('node:os')
const { join } = require('node:path')
const { bigMessageFolder, freed, incoming, outgoing, removeFolder } = require('./big-messages.cjs')
const { closedAway, fromAway, moveAway } = require('./message-ports.cjs')

const PARENT_PORT = join(__dirname, 'parent-port.cjs')

/** stdio as Electron takes it ('pipe' | 'ignore' | 'inherit', or [stdin, stdout, stderr]; stdin is always ignored). */
function stdioOf(option) {
  const [_stdin, stdout, stderr] = Array.isArray(option) ? option : [option, option, option]
  return ['ignore', stdout ?? 'inherit', stderr ?? 'inherit', 'ipc']
}

class UtilityProcess extends EventEmitter {
  constructor(modulePath, args = [], options = {}) {
    super()
    this.messages = bigMessageFolder()
    /** Ids of the port ends that moved into this child. */
    this.ports = new Set()
    this.child = forkChild(modulePath, args, {
      serialization: 'advanced',
      stdio: stdioOf(options.stdio ?? 'inherit'),
      env: { ...(options.env ?? process.env), LCB_RIG_MESSAGES: this.messages },
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
    this.child.on('message', (raw) => {
      if (raw && typeof raw === 'object' && '__lcbFree' in raw) return freed(raw.__lcbFree)
      const message = incoming(raw, (path) => this.send({ __lcbFree: path }))
      if (message && typeof message === 'object' && '__lcbPortPost' in message) return fromAway(message.__lcbPortPost, message.data)
      if (message && typeof message === 'object' && '__lcbPortClose' in message) {
        this.ports.delete(message.__lcbPortClose)
        return closedAway(message.__lcbPortClose)
      }
      this.emit('message', message)
    })
    // Electron reports one number: the exit code, or for a process ended by a signal the signal's number (a
    // SIGKILL is 9, a SIGABRT 6), and 'exit' comes once, after the process is gone. Its port ends close with it.
    this.child.once('exit', (code, signal) => {
      this.pid = undefined
      for (const id of this.ports) closedAway(id)
      this.ports.clear()
      removeFolder(this.messages)
      this.emit('exit', code ?? (signal ? constants.signals[signal] : 0))
    })
    // A message to a process that has just ended is dropped, as Electron drops it.
    this.child.on('error', () => undefined)
  }

  postMessage(message, transfer = []) {
    // structured clone refuses here, as it does in Electron (the caller sees the throw)
    const ids = transfer.map((port) =>
      moveAway(port, {
        deliver: (data) => this.send({ __lcbPort: port.id, data }),
        close: () => this.send({ __lcbPortClosed: port.id }),
      }),
    )
    for (const id of ids) this.ports.add(id)
    this.send(ids.length > 0 ? { __lcbPorts: ids, data: message } : message)
  }

  send(message) {
    if (!this.child.connected) return
    this.child.send(outgoing(message, this.messages), (error) => {
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
