import {
  Binary,
  Bool,
  DateDay,
  Field,
  Float64,
  Int32,
  Int64,
  List,
  Struct,
  Utf8,
  makeVector,
  vectorFromArray,
  type Table,
} from 'apache-arrow'
import { batchOf, float32Vectors, seededRandom, tableOf, timestampsMicro, withNulls } from '../arrow'
import { DEMO_JPEGS, DEMO_WEBPS, demoGif, demoPng } from './images'

/** The rows of the demo catalog: deterministic, so screenshots and tests see the same values every time. */

export const PHOTO_ROWS = 100_000
export const PHOTO_VECTOR_DIMENSION = 128
const BATCH_ROWS = 10_000

// Some non-ASCII on purpose: accents, Greek, CJK, emoji (surrogate pairs), so every renderer path is exercised.
const PLACES = ['Café de Flore', 'Zürich', '東京タワー', 'São Paulo', 'Ærøskøbing', 'Kraków', 'Ελλάδα', 'Reykjavík', 'naïve façade', 'Seoul 서울']
const SUBJECTS = ['sunrise 🌅', 'harbour', 'street market', 'mountain ⛰️', 'old town', 'night sky ✨', 'river', 'portrait']
const CAPTIONS = ['Taken on a tripod', 'Handheld, slightly blurred', 'Golden hour', 'Overcast', 'With a polarizing filter']

/** `demo/images/2024/photos`: 100,000 rows with every common column kind and a 128-d embedding. */
export function photosTable(rows = PHOTO_ROWS): Table {
  const random = seededRandom(2024)
  const start = BigInt(Date.UTC(2024, 0, 1)) * 1000n // µs
  const batches = []
  for (let first = 0; first < rows; first += BATCH_ROWS) {
    const n = Math.min(BATCH_ROWS, rows - first)
    const ids = new BigInt64Array(n)
    const takenAt = new BigInt64Array(n)
    const scores = new Float64Array(n)
    const titles: string[] = new Array(n)
    const captions: (string | null)[] = new Array(n)
    const embedding = new Float32Array(n * PHOTO_VECTOR_DIMENSION)
    for (let i = 0; i < n; i++) {
      const row = first + i
      ids[i] = BigInt(row)
      // Every 5 minutes through 2024 (100,000 rows ≈ 347 days).
      takenAt[i] = start + BigInt(row) * 300_000_000n
      scores[i] = Math.round(random() * 1e6) / 1e4
      titles[i] = `${PLACES[row % PLACES.length]} — ${SUBJECTS[(row * 7) % SUBJECTS.length]} #${row}`
      captions[i] = row % 7 === 3 ? null : `${CAPTIONS[row % CAPTIONS.length]}`
    }
    for (let j = 0; j < embedding.length; j++) embedding[j] = random() * 2 - 1
    batches.push(
      batchOf({
        id: { vector: makeVector(ids), nullable: false },
        title: { vector: vectorFromArray(titles, new Utf8()), nullable: false },
        score: { vector: makeVector(scores), nullable: false },
        caption: { vector: vectorFromArray(captions, new Utf8()), nullable: true },
        taken_at: { vector: timestampsMicro(takenAt, 'UTC'), nullable: false },
        embedding: { vector: float32Vectors(embedding, PHOTO_VECTOR_DIMENSION), nullable: false },
      }),
    )
  }
  return tableOf(batches)
}

/** `demo/images/albums`: a handful of rows with a date and a nullable count. */
export function albumsTable(): Table {
  const names = ['Summer in Zürich', '東京 2024', 'Ærø by bike', 'Family 👪', 'Untitled']
  const days = [19_900, 19_950, 20_000, 20_050, 20_100].map((d) => new Date(d * 86_400_000))
  return tableOf([
    batchOf({
      id: { vector: makeVector(new BigInt64Array([1n, 2n, 3n, 4n, 5n])), nullable: false },
      name: vectorFromArray(names, new Utf8()),
      created: vectorFromArray(days, new DateDay()),
      photo_count: { vector: withNulls(makeVector(new Int32Array([120, 48, 310, 0, 7])), (i) => i !== 4), nullable: true },
    }),
  ])
}

/** `samples/kinds`: one column per cell kind the grid renders (binary, list, struct, bool, int64 > 2^53 …). */
export function kindsTable(): Table {
  const big = [0n, 1n, -1n, 9_007_199_254_740_993n /* 2^53 + 1: not exact as a JS number */, 9_223_372_036_854_775_807n, -9_223_372_036_854_775_808n]
  const n = big.length
  const bytes = (...values: number[]) => Uint8Array.from(values)
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from({ length: n }, (_, i) => BigInt(i + 1))), nullable: false },
      big: { vector: vectorFromArray(big, new Int64()), nullable: false },
      label: vectorFromArray(['zero', 'one', 'minus one', '2^53 + 1', 'max int64', 'min int64'], new Utf8()),
      flag: vectorFromArray([true, false, true, null, false, true], new Bool()),
      ratio: vectorFromArray([0, 0.5, -1.25, Number.NaN, Number.POSITIVE_INFINITY, null], new Float64()),
      payload: vectorFromArray(
        [bytes(), bytes(0xde, 0xad, 0xbe, 0xef), bytes(...Array.from({ length: 64 }, (_, i) => i)), null, bytes(0), bytes(0xff, 0xfe)],
        new Binary(),
      ),
      tags: vectorFromArray([[], ['a'], ['red', 'green', 'blue'], null, ['ünïcödé', '漢字'], ['x', 'y']], new List(new Field('item', new Utf8(), true))),
      point: vectorFromArray(
        [{ a: 1, b: 'one' }, { a: 2, b: 'two' }, { a: -3, b: null }, null, { a: 0, b: 'zero' }, { a: 2_147_483_647, b: 'max' }],
        new Struct([new Field('a', new Int32(), true), new Field('b', new Utf8(), true)]),
      ),
      day: vectorFromArray([0, 1, 19_723, null, -1, 20_000].map((d) => (d === null ? null : new Date(d * 86_400_000))), new DateDay()),
    }),
  ])
}

export const IMAGE_ROWS = 1200

/** What row `i` of `samples/pictures` holds in `image`: its kind, as the `kind` column names it. */
export function imageKindOf(row: number): 'png' | 'jpeg' | 'webp' | 'gif' | 'not an image' | null {
  if (row % 20 === 9) return null
  if (row % 20 === 19) return 'not an image'
  return (['png', 'png', 'png', 'png', 'png', 'jpeg', 'jpeg', 'webp', 'gif', 'png'] as const)[row % 10]!
}

/**
 * `samples/pictures`: real PNG, JPEG, WebP and GIF bytes in a binary column (`image`), with a null in every 20th
 * row and bytes that are no image in another; `thumb` is a second image column (small PNGs).
 */
export function imagesTable(rows = IMAGE_ROWS): Table {
  const kinds: (string | null)[] = []
  const images: (Uint8Array | null)[] = []
  const thumbs: Uint8Array[] = []
  for (let i = 0; i < rows; i++) {
    const kind = imageKindOf(i)
    const hue = (i * 37) % 360
    kinds.push(kind)
    images.push(
      kind === null
        ? null
        : kind === 'not an image'
          ? new TextEncoder().encode(`row ${i}: plain bytes, no image`)
          : kind === 'jpeg'
            ? DEMO_JPEGS[i % DEMO_JPEGS.length]!
            : kind === 'webp'
              ? DEMO_WEBPS[i % DEMO_WEBPS.length]!
              : kind === 'gif'
                ? demoGif(hue)
                : demoPng(hue, i),
    )
    thumbs.push(demoPng((hue + 180) % 360, i + 5, 16))
  }
  return tableOf([
    batchOf({
      id: { vector: makeVector(BigInt64Array.from({ length: rows }, (_, i) => BigInt(i))), nullable: false },
      kind: vectorFromArray(kinds, new Utf8()),
      image: vectorFromArray(images, new Binary()),
      thumb: { vector: vectorFromArray(thumbs, new Binary()), nullable: false },
    }),
  ])
}

/** `analytics/events`: 1,000 small rows in another namespace. */
export function eventsTable(rows = 1000): Table {
  const random = seededRandom(7)
  const kinds = ['view', 'click', 'share', 'purchase']
  const ids = BigInt64Array.from({ length: rows }, (_, i) => BigInt(i))
  const at = BigInt64Array.from({ length: rows }, (_, i) => (BigInt(Date.UTC(2024, 5, 1)) + BigInt(i) * 60_000n) * 1000n)
  return tableOf([
    batchOf({
      id: { vector: makeVector(ids), nullable: false },
      kind: vectorFromArray(Array.from({ length: rows }, (_, i) => kinds[i % kinds.length]!), new Utf8()),
      value: makeVector(Float64Array.from({ length: rows }, () => Math.round(random() * 10_000) / 100)),
      at: timestampsMicro(at, 'UTC'),
    }),
  ])
}

/** `welcome` at the root: what the demo holds. */
export function welcomeTable(): Table {
  const lines = [
    'This is the demo catalog of Lance Catalog Browser.',
    'demo/images/2024/photos has 100,000 rows with a 128-d embedding.',
    'samples/kinds shows every kind of cell: binary, lists, structs, int64 above 2^53.',
    'samples/empty is a table with no rows.',
    'Open your own catalog with "Open directory…".',
  ]
  return tableOf([
    batchOf({
      line: { vector: makeVector(Int32Array.from(lines, (_, i) => i + 1)), nullable: false },
      text: { vector: vectorFromArray(lines, new Utf8()), nullable: false },
    }),
  ])
}
