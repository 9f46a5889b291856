// Loaded with `--require` in a child started by the stand-in's utilityProcess.fork: gives the child Electron's
// `process.parentPort` (messages as `{ data, ports }`, `postMessage`) over Node's IPC channel, with the MessagePortMain
// ends the parent transferred (their messages routed through the parent, message-ports.cjs) and large messages
// through shared memory (big-messages.cjs); and takes `process.send` away, as a utility process has none. Test code
// only; never shipped.
'use strict'
const { EventEmitter } = require('node:events')
const { freed, incoming, outgoing } = require('./big-messages.cjs')

const send = process.send.bind(process)
const dir = process.env.LCB_RIG_MESSAGES
delete process.env.LCB_RIG_MESSAGES

/** A dropped message (the parent has gone) is dropped, as Electron drops it; what structured clone refuses throws. */
function post(message) {
  const out = outgoing(message, dir)
  if (process.connected) send(out, () => undefined)
}

/** A MessagePortMain end the parent moved here: what is posted on it goes back through the parent to its peer. */
class Port extends EventEmitter {
  constructor(id) {
    super()
    this.id = id
    this.started = false
    this.closed = false
    this.queue = []
  }
  postMessage(message) {
    if (this.closed) return
    post({ __lcbPortPost: this.id, data: message })
  }
  start() {
    if (this.started) return
    this.started = true
    for (const data of this.queue.splice(0)) this.emit('message', { data, ports: [] })
  }
  close() {
    if (this.closed) return
    this.closed = true
    ports.delete(this.id)
    post({ __lcbPortClose: this.id })
  }
  receive(data) {
    if (this.closed) return
    if (this.started) this.emit('message', { data, ports: [] })
    else this.queue.push(data)
  }
}
const ports = new Map()

const parentPort = new EventEmitter()
parentPort.postMessage = (message) => post(message)
parentPort.start = () => undefined
process.on('message', (raw) => {
  if (raw && typeof raw === 'object' && '__lcbFree' in raw) return freed(raw.__lcbFree)
  const message = incoming(raw, (path) => post({ __lcbFree: path }))
  if (message && typeof message === 'object') {
    if ('__lcbPort' in message) return ports.get(message.__lcbPort)?.receive(message.data)
    if ('__lcbPortClosed' in message) {
      const port = ports.get(message.__lcbPortClosed)
      ports.delete(message.__lcbPortClosed)
      if (port && !port.closed) {
        port.closed = true
        port.emit('close')
      }
      return
    }
    if ('__lcbPorts' in message) {
      const moved = message.__lcbPorts.map((id) => {
        const port = new Port(id)
        ports.set(id, port)
        return port
      })
      return parentPort.emit('message', { data: message.data, ports: moved })
    }
  }
  parentPort.emit('message', { data: message, ports: [] })
})
process.parentPort = parentPort
delete process.send
