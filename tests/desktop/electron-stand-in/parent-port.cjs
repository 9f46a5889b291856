// Loaded with `--require` in a child started by the stand-in's utilityProcess.fork: gives the child Electron's
// `process.parentPort` (messages as `{ data, ports }`, `postMessage`) over Node's IPC channel, and takes
// `process.send` away, as a utility process has none. Test code only; never shipped.
'use strict'
const { EventEmitter } = require('node:events')

const send = process.send.bind(process)
const parentPort = new EventEmitter()
parentPort.postMessage = (message) => {
  // A parent that has gone drops the message (Electron does too); a value structured clone refuses throws here.
  if (process.connected) send(message, () => undefined)
}
parentPort.start = () => undefined
process.on('message', (data) => parentPort.emit('message', { data, ports: [] }))
process.parentPort = parentPort
delete process.send
