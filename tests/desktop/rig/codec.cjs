// Values crossing between the rig's page and the test process travel as JSON; this codec keeps what Electron's IPC
// keeps (the structured clone set: undefined, NaN/±Infinity/-0, BigInt, Date, RegExp, ArrayBuffer, typed arrays,
// DataView, Map, Set, arrays, plain objects, errors' name and message) and refuses what it refuses (functions,
// symbols). Callers run structuredClone first, so class instances arrive as plain objects as they do in Electron.
// The same source runs in the page (its text is injected) and in Node (required): keep it self-contained.
'use strict'

function lcbRigCodec(base64) {
  const VIEWS = ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array', 'DataView']
  const bytesOf = (view) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
  function encode(value) {
    switch (typeof value) {
      case 'undefined':
        return { $: 'u' }
      case 'boolean':
      case 'string':
        return value
      case 'number':
        return Number.isFinite(value) && !Object.is(value, -0) ? value : { $: 'n', v: Object.is(value, -0) ? '-0' : String(value) }
      case 'bigint':
        return { $: 'bi', v: value.toString() }
      case 'object':
        break
      default:
        throw new TypeError(`An object could not be cloned (${typeof value})`)
    }
    if (value === null) return null
    if (Array.isArray(value)) return { $: 'a', v: value.map(encode) }
    const tag = Object.prototype.toString.call(value).slice(8, -1)
    if (tag === 'ArrayBuffer') return { $: 'ab', v: base64.encode(new Uint8Array(value)) }
    if (ArrayBuffer.isView(value)) return { $: 'ta', k: VIEWS.includes(tag) ? tag : 'Uint8Array', v: base64.encode(bytesOf(value)) }
    if (tag === 'Date') return { $: 'd', v: value.getTime() }
    if (tag === 'RegExp') return { $: 're', s: value.source, f: value.flags }
    if (tag === 'Map') return { $: 'm', v: [...value].map(([k, v]) => [encode(k), encode(v)]) }
    if (tag === 'Set') return { $: 's', v: [...value].map(encode) }
    if (tag === 'Error') return { $: 'e', name: value.name, message: value.message }
    const out = {}
    for (const key of Object.keys(value)) out[key] = encode(value[key])
    return { $: 'o', v: out }
  }
  function decode(value) {
    if (value === null || typeof value !== 'object') return value
    switch (value.$) {
      case 'u':
        return undefined
      case 'n':
        return value.v === '-0' ? -0 : Number(value.v)
      case 'bi':
        return BigInt(value.v)
      case 'a':
        return value.v.map(decode)
      case 'ab':
        return base64.decode(value.v).buffer
      case 'ta': {
        const bytes = base64.decode(value.v)
        if (value.k === 'DataView') return new DataView(bytes.buffer)
        const View = globalThis[value.k]
        return new View(bytes.buffer, 0, bytes.byteLength / View.BYTES_PER_ELEMENT)
      }
      case 'd':
        return new Date(value.v)
      case 're':
        return new RegExp(value.s, value.f)
      case 'm':
        return new Map(value.v.map(([k, v]) => [decode(k), decode(v)]))
      case 's':
        return new Set(value.v.map(decode))
      case 'e': {
        const error = new Error(value.message)
        if (value.name !== 'Error') error.name = value.name
        return error
      }
      case 'o': {
        const out = {}
        for (const key of Object.keys(value.v)) out[key] = decode(value.v[key])
        return out
      }
      default:
        throw new TypeError('not an encoded value')
    }
  }
  return { encode, decode }
}

module.exports = { lcbRigCodec }
