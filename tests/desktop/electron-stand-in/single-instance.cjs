// The desktop rig's single-instance lock (electron.cjs's app.requestSingleInstanceLock): the first instance of a
// userData listens on a Unix socket; a later one connects, hands over its argv, and learns it is not the first.
// Electron's call is synchronous, so the hand-over runs in a worker while this thread waits on it (Atomics.wait).
// Test code only.
'use strict'
const net = require('node:net')
const { unlinkSync } = require('node:fs')
const { Worker: ThreadWorker } = require('node:worker_threads')

const WORKER = `
const net = require('node:net')
const { workerData } = require('node:worker_threads')
const done = (value) => { Atomics.store(workerData.state, 0, value); Atomics.notify(workerData.state, 0) }
let answer = ''
const socket = net.connect(workerData.path)
socket.on('connect', () => socket.end(JSON.stringify(workerData.message)))
socket.on('data', (chunk) => (answer += chunk))
socket.on('error', () => done(2))
socket.on('close', () => done(answer === 'ok' ? 1 : 2))
`

/** True when a first instance took `message` (this one must quit); false when there is none (take the lock). */
function handOver(path, message) {
  const state = new Int32Array(new SharedArrayBuffer(4))
  const worker = new ThreadWorker(WORKER, { eval: true, workerData: { path, message, state } })
  Atomics.wait(state, 0, 0, 30_000)
  void worker.terminate()
  return Atomics.load(state, 0) === 1
}

/** Hold the lock: later instances' messages go to `onSecond`. A socket file left by an instance that died is replaced. */
function listen(path, onSecond) {
  try {
    unlinkSync(path)
  } catch {
    // none left over
  }
  const server = net.createServer((socket) => {
    let text = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => (text += chunk))
    socket.on('end', () => {
      socket.end('ok')
      try {
        onSecond(JSON.parse(text))
      } catch (error) {
        console.error('[rig] a second instance sent what is not JSON:', error)
      }
    })
    socket.on('error', () => undefined)
  })
  server.listen(path)
  return server
}

module.exports = { handOver, listen }
