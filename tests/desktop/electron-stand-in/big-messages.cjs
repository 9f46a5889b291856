// How the stand-in's utility processes move a large binary value: as Chromium's Mojo does with a large message
// body (a `BigBuffer` in shared memory past 64 KiB: one copy in, one copy out), an ArrayBuffer (or typed array) of
// more than 64 KiB in a message is written into memory the other side reads — a slot file in /dev/shm (tmpfs; the
// temp folder where there is none) — and only the slot's name and length cross Node's IPC channel, in its place.
// Slots are reused once the receiver says it has read one (`__lcbFree`), and written in place, never truncated, so
// their memory stays mapped as a shared-memory region's does: on this VM a fresh page costs ~30 µs, and a 600 KB
// value written to a new file took ~5 ms, where Mojo's copy into mapped memory takes a fraction of that. Node's own
// 'advanced' IPC moved large messages at ~70 MB/s here (~10 ms a 600 KB page), nothing like Electron either. Values
// are looked for in the message's plain objects and arrays, a few levels deep (where the app's pages are). Both
// sides use this module; the parent removes the folder when the child ends. Test code only; never shipped.
'use strict'
const { closeSync, existsSync, mkdirSync, openSync, readSync, rmSync, writeSync } = require('node:fs')
const { tmpdir } = require('node:os')
const { join } = require('node:path')

const BIG = 64 * 1024
const DEPTH = 4
let next = 1

/** A folder for one child's large values (both directions), made by the parent. */
function bigMessageFolder() {
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir()
  const dir = join(base, `lcb-rig-messages-${process.pid}-${Date.now().toString(36)}-${next++}`)
  mkdirSync(dir, { recursive: true })
  return dir
}

/** This side's slots, per folder: files it writes, free once the other side has read them; descriptors stay open. */
const free = new Map()
const written = new Map()
/** Descriptors of the other side's slots this side read, kept open. */
const readers = new Map()

function slot(dir) {
  const reused = free.get(dir)?.pop()
  if (reused) return reused
  const path = join(dir, `${process.pid}-${next++}`)
  return { path, dir, fd: openSync(path, 'w+') }
}

const isPlain = (value) => value !== null && typeof value === 'object' && (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype)

/** `message` with each large binary value swapped for the slot now holding its bytes. */
function outgoing(message, dir, depth = 0) {
  if (!dir) return message
  if (message instanceof ArrayBuffer || ArrayBuffer.isView(message)) {
    if (message.byteLength <= BIG) return message
    const bytes = message instanceof ArrayBuffer ? new Uint8Array(message) : new Uint8Array(message.buffer, message.byteOffset, message.byteLength)
    const at = slot(dir)
    for (let done = 0; done < bytes.length; ) done += writeSync(at.fd, bytes, done, bytes.length - done, done)
    written.set(at.path, at)
    return { __lcbBig: at.path, length: bytes.length, kind: message instanceof ArrayBuffer ? 'ArrayBuffer' : message.constructor.name }
  }
  if (depth >= DEPTH || !isPlain(message)) return message
  if (Array.isArray(message)) return message.map((item) => outgoing(item, dir, depth + 1))
  const out = {}
  for (const key of Object.keys(message)) out[key] = outgoing(message[key], dir, depth + 1)
  return out
}

/**
 * What arrived, with each large value read back into memory of its own (as the receiver of a Mojo message gets its
 * own ArrayBuffer); `done(path)` is called for each slot read, to tell the other side it is free again.
 */
function incoming(message, done, depth = 0) {
  if (!isPlain(message) || depth > DEPTH) return message
  if (typeof message.__lcbBig === 'string') {
    let fd = readers.get(message.__lcbBig)
    if (fd === undefined) readers.set(message.__lcbBig, (fd = openSync(message.__lcbBig, 'r')))
    const buffer = new ArrayBuffer(message.length)
    const view = new Uint8Array(buffer)
    for (let got = 0; got < view.length; ) {
      const n = readSync(fd, view, got, view.length - got, got)
      if (n === 0) throw new Error(`the rig's message slot ${message.__lcbBig} ended early`)
      got += n
    }
    done(message.__lcbBig)
    if (message.kind === 'ArrayBuffer') return buffer
    if (message.kind === 'Buffer') return Buffer.from(buffer)
    const View = globalThis[message.kind] ?? Uint8Array
    return new View(buffer)
  }
  if (Array.isArray(message)) return message.map((item) => incoming(item, done, depth + 1))
  const out = {}
  for (const key of Object.keys(message)) out[key] = incoming(message[key], done, depth + 1)
  return out
}

/** The other side read this slot of ours: it may be written again. */
function freed(path) {
  const at = written.get(path)
  if (!at) return
  written.delete(path)
  if (!free.has(at.dir)) free.set(at.dir, [])
  free.get(at.dir).push(at)
}

function removeFolder(dir) {
  for (const [path, fd] of readers) {
    if (!path.startsWith(dir)) continue
    closeSync(fd)
    readers.delete(path)
  }
  for (const at of [...(free.get(dir) ?? []), ...[...written.values()].filter((w) => w.dir === dir)]) {
    closeSync(at.fd)
    written.delete(at.path)
  }
  free.delete(dir)
  rmSync(dir, { recursive: true, force: true })
}

module.exports = { bigMessageFolder, outgoing, incoming, freed, removeFolder }
