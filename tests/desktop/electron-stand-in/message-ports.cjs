// Electron's MessageChannelMain and MessagePortMain for the desktop rig and main's tests, and the routing that lets
// an end move to another process — a utility process (utility-process.cjs, parent-port.cjs) or a window (the rig's
// page, page-preload.cjs) — as Electron's ports move over Mojo. Each end has an id unique across the processes; a
// message posted on an end is structured-cloned and delivered to its peer wherever the peer lives now. An end queues
// what it receives until `start()` (MessagePortMain's rule). Test code only; never shipped.
'use strict'
const { EventEmitter } = require('node:events')

let nextId = 1
/** Ends that live in this process, by id. */
const local = new Map()
/** An end's peer, by id (both directions). */
const peers = new Map()
/** Where an end that left this process lives: id → deliver(data) / close(). */
const away = new Map()

class MessagePortMain extends EventEmitter {
  constructor(id) {
    super()
    this.id = id ?? `${process.pid}:${nextId++}`
    this.started = false
    this.closed = false
    this.queue = []
    local.set(this.id, this)
  }
  postMessage(message, transfer) {
    if (transfer && transfer.length > 0) throw new Error('the rig does not move ports through a port')
    if (this.closed) return
    deliver(peers.get(this.id), structuredClone(message))
  }
  start() {
    if (this.started) return
    this.started = true
    for (const data of this.queue.splice(0)) this.emit('message', { data, ports: [] })
  }
  close() {
    if (this.closed) return
    this.closed = true
    local.delete(this.id)
    peerGone(peers.get(this.id))
  }
  /** A message for this end (from its peer). */
  receive(data) {
    if (this.closed) return
    if (this.started) this.emit('message', { data, ports: [] })
    else this.queue.push(data)
  }
  /** Its peer closed. */
  peerClosed() {
    if (this.closed) return
    this.closed = true
    local.delete(this.id)
    this.emit('close')
  }
}

class MessageChannelMain {
  constructor() {
    this.port1 = new MessagePortMain()
    this.port2 = new MessagePortMain()
    peers.set(this.port1.id, this.port2.id)
    peers.set(this.port2.id, this.port1.id)
  }
}

function deliver(id, data) {
  if (id === undefined) return
  const here = local.get(id)
  if (here) return here.receive(data)
  away.get(id)?.deliver(data)
}

function peerGone(id) {
  if (id === undefined) return
  const here = local.get(id)
  if (here) return here.peerClosed()
  away.get(id)?.close()
}

/**
 * An end of this process moves elsewhere: from now on its messages go through `target` ({ deliver(data), close() }),
 * and what arrives from there for it is handed to `fromAway`. Returns its id.
 */
function moveAway(port, target) {
  if (!(port instanceof MessagePortMain)) throw new TypeError('Only MessagePortMain objects can be transferred')
  local.delete(port.id)
  away.set(port.id, target)
  return port.id
}

/** A message posted on a moved end (`id`), in the process it moved to: deliver it to that end's peer. */
function fromAway(id, data) {
  deliver(peers.get(id), data)
}

/** A moved end (`id`) was closed where it lives (or its process or window went). */
function closedAway(id) {
  away.delete(id)
  peerGone(peers.get(id))
}

module.exports = { MessageChannelMain, MessagePortMain, moveAway, fromAway, closedAway }
