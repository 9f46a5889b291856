import { VECTOR_SCAN_WASM } from './vectorScan.wasm'

/**
 * A vector column's hot loop in the Summary: per vector, the sum of the squares of its items (its norm; zero
 * only for an all-zero vector, NaN for one with a NaN item) and a 64-bit hash of its items' bits, as two 32-bit
 * words (for exact duplicates). Float32 vectors go through WebAssembly SIMD (vectorScan.wat): over 1M 768-d rows
 * ~0.3 s in the kernel and ~0.45 s for the copy into its memory and the statistics around it, where the fastest
 * JavaScript loop took ~1.4 s. This file holds the same computation in JavaScript, which the tests compare it with
 * bit for bit, and which runs where WebAssembly SIMD does not. Float64 vectors are hashed the same way over their
 * 32-bit words. vectorScan.wat says how the sums and the hash are laid out.
 */

/** Receives each vector's sum of squares, the two words of its hash, and its row in the scanned items, in row order. */
export type VectorVisitor = (squares: number, hashH: number, hashG: number, row: number) => void

/** The seeds of the 16 h chains, then of the 16 g chains (as in vectorScan.wat). */
const SEEDS = Int32Array.of(
  0x811c9dc5, 0x050c5d1f, 0x1b873593, 0x2d2816fe, 0x3c6ef372, 0x5be0cd19, 0x1f83d9ab, 0x7f4a7c15,
  0x61c88647, 0x27d4eb2f, 0x165667b1, 0x0c2b2ae3, 0x6a09e667, 0x3f84d5b5, 0x243f6a88, 0x13198a2e,
  0x85ebca6b, 0xc2b2ae35, 0x27d4eb2d, 0x165667b1, 0xd3a2646c, 0xfd7046c5, 0xb55a4f09, 0x9e3779b9,
  0x7feb352d, 0x846ca68b, 0x94d049bb, 0xbf58476d, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
)

/** One word into an h chain: FNV-1a's step, then a shift that carries high bits down (see vectorScan.wat). */
function mixH(h: number, w: number): number {
  h = Math.imul(h ^ w, 0x01000193)
  return h ^ (h >>> 15)
}

/** One word into a g chain: another multiplier and shift. */
function mixG(g: number, w: number): number {
  g = Math.imul(g ^ w, 0x5bd1e995)
  return g ^ (g >>> 13)
}

const chains = new Int32Array(32)
/** The g word of the hash {@link hashWords} computed last (a second return value without an object per row). */
let lastG = 0

/**
 * The hash of `count` 32-bit words from `start`: word k into lane k mod 16's two chains over the whole blocks
 * of 16, the 32 chains folded by each step, then the rest into both. Returns the h word; the g word is in
 * {@link lastG}.
 */
export function hashWords(words: Int32Array, start: number, count: number): number {
  chains.set(SEEDS)
  const blocksEnd = start + (count & ~15)
  let k = start
  for (; k < blocksEnd; k += 16) {
    for (let j = 0; j < 16; j++) {
      chains[j] = mixH(chains[j]!, words[k + j]!)
      chains[16 + j] = mixG(chains[16 + j]!, words[k + j]!)
    }
  }
  let h = 0x811c9dc5 | 0
  let g = 0x050c5d1f
  for (let j = 0; j < 32; j++) {
    h = mixH(h, chains[j]!)
    g = mixG(g, chains[j]!)
  }
  for (; k < start + count; k++) {
    h = mixH(h, words[k]!)
    g = mixG(g, words[k]!)
  }
  lastG = g
  return h
}

/** The sum of the squares of `d` items from `start`: eight running sums over whole blocks of 16, then the rest. */
export function sumOfSquares(items: Float32Array | Float64Array, start: number, d: number): number {
  const blocksEnd = start + (d & ~15)
  let p0 = 0
  let p1 = 0
  let p2 = 0
  let p3 = 0
  let p4 = 0
  let p5 = 0
  let p6 = 0
  let p7 = 0
  let k = start
  for (; k < blocksEnd; k += 8) {
    const a = items[k]!
    const b = items[k + 1]!
    const c = items[k + 2]!
    const e = items[k + 3]!
    const f = items[k + 4]!
    const g = items[k + 5]!
    const h = items[k + 6]!
    const i = items[k + 7]!
    p0 += a * a
    p1 += b * b
    p2 += c * c
    p3 += e * e
    p4 += f * f
    p5 += g * g
    p6 += h * h
    p7 += i * i
  }
  let s = p0 + p2 + (p4 + p6) + (p1 + p3 + (p5 + p7))
  for (; k < start + d; k++) s += items[k]! * items[k]!
  return s
}

/** The 32-bit words of a typed array's bytes (float32 and float64 arrays are always 4-byte aligned). */
export function wordsOf(items: Float32Array | Float64Array): Int32Array {
  return new Int32Array(items.buffer, items.byteOffset, items.byteLength / 4)
}

/** Visit `rows` vectors of `d` items laid end to end in `items`, in JavaScript. */
export function scanVectorsInJs(items: Float32Array | Float64Array, rows: number, d: number, visit: VectorVisitor): void {
  const words = wordsOf(items)
  const perRow = items.BYTES_PER_ELEMENT === 8 ? 2 * d : d
  for (let r = 0; r < rows; r++) {
    const h = hashWords(words, r * perRow, perRow)
    visit(sumOfSquares(items, r * d, d), h, lastG, r)
  }
}

/** Bytes of items copied into the module's memory at a time: one chunk stays in the core's own cache. */
const CHUNK_BYTES = 256 * 1024
/** Where the items start in the module's memory (the first 128 bytes are its scratch). */
const ITEMS_AT = 128
const PAGE = 65_536

/** The parts of the WebAssembly API used here (core's TypeScript programs do not load the DOM's declarations). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => { exports: object }
}

interface Exports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number }
  scan(items: number, rows: number, d: number, squares: number, hashes: number): void
}

/** The compiled kernel and its memory, laid out for chunks of a given number of rows of a given dimension. */
class WasmScanner {
  private readonly exports: Exports
  /** The dimension the memory is laid out for (none yet). */
  private d = -1
  private chunkRows = 0
  private itemsView = new Float32Array(0)
  private squaresView = new Float64Array(0)
  private hashesView = new Int32Array(0)

  constructor(api: WasmApi, bytes: Uint8Array) {
    this.exports = new api.Instance(new api.Module(bytes)).exports as Exports
  }

  scan(items: Float32Array, rows: number, d: number, visit: VectorVisitor): void {
    if (d !== this.d) this.layOut(d)
    const { scan } = this.exports
    const squaresAt = this.squaresView.byteOffset
    const hashesAt = this.hashesView.byteOffset
    for (let first = 0; first < rows; first += this.chunkRows) {
      const n = Math.min(this.chunkRows, rows - first)
      this.itemsView.set(items.subarray(first * d, (first + n) * d))
      scan(ITEMS_AT, n, d, squaresAt, hashesAt)
      const squares = this.squaresView
      const hashes = this.hashesView
      for (let i = 0; i < n; i++) visit(squares[i]!, hashes[2 * i]!, hashes[2 * i + 1]!, first + i)
    }
  }

  /** Room for a chunk of rows of dimension `d` (at least one row, however long), the memory grown to hold it. */
  private layOut(d: number): void {
    const chunkRows = Math.max(1, Math.floor(CHUNK_BYTES / (4 * Math.max(d, 1))))
    const squaresAt = ITEMS_AT + Math.ceil((chunkRows * d * 4) / 8) * 8
    const hashesAt = squaresAt + chunkRows * 8
    const needed = hashesAt + chunkRows * 8
    const memory = this.exports.memory
    if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE))
    // Views are made after growing: growing detaches the old buffer.
    this.itemsView = new Float32Array(memory.buffer, ITEMS_AT, chunkRows * d)
    this.squaresView = new Float64Array(memory.buffer, squaresAt, chunkRows)
    this.hashesView = new Int32Array(memory.buffer, hashesAt, chunkRows * 2)
    this.d = d
    this.chunkRows = chunkRows
  }
}

let scanner: WasmScanner | null | undefined

/** The WebAssembly kernel, made once per thread; null where WebAssembly SIMD cannot run (then JavaScript does). */
function wasmScanner(): WasmScanner | null {
  if (scanner === undefined) {
    const api = (globalThis as { WebAssembly?: WasmApi }).WebAssembly
    try {
      // Compiling throws where SIMD is missing (V8 needs SSE4.1 on x86): the JavaScript loop then does the work.
      scanner = api ? new WasmScanner(api, Uint8Array.from(atob(VECTOR_SCAN_WASM), (c) => c.charCodeAt(0))) : null
    } catch {
      scanner = null
    }
  }
  return scanner
}

/** Which engine {@link scanVectors} uses for float32 vectors on this thread. */
export function vectorScanEngine(): 'wasm' | 'js' {
  return wasmScanner() ? 'wasm' : 'js'
}

/**
 * Visit `rows` vectors of `d` items laid end to end in `items`: float32 ones through WebAssembly where it runs,
 * float64 ones (and float32 where it does not) in JavaScript. Both give the same sums and hashes.
 */
export function scanVectors(items: Float32Array | Float64Array, rows: number, d: number, visit: VectorVisitor, engine: 'wasm' | 'js' = 'wasm'): void {
  const wasm = engine === 'wasm' && items instanceof Float32Array ? wasmScanner() : null
  if (wasm) wasm.scan(items as Float32Array, rows, d, visit)
  else scanVectorsInJs(items, rows, d, visit)
}
