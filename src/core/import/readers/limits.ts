/**
 * The limits import holds at the first byte, in one place (docs/reliability.md lists them). Each is far above
 * what an ordinary file meets, and each refusal says which limit was met and how to get past it.
 */

const MiB = 1024 * 1024
const GiB = 1024 * MiB

/**
 * The largest zstd window a frame may declare: 128 MiB, the reference decoder's own default (`zstd -d` refuses
 * more without `--long=31` / `--memory=`); `zstd -19` uses 8 MiB, `--ultra -22` 128 MiB. The decoder holds a
 * window of this size, so the limit bounds its memory.
 */
export const MAX_ZSTD_WINDOW = 128 * MiB

/**
 * Decompressed text may be at most this many times the compressed bytes read so far, once it passes
 * {@link RATIO_GRACE}. CSV and JSON compress 5–20× (sparse or very repetitive ones up to ~100×); deflate cannot
 * exceed ~1,032×, so a gzip file past 1,000× is all runs; a zstd "bomb" is 30,000× (1 GiB of newlines in 34 KB).
 */
export const MAX_RATIO = 1000

/** The ratio is not judged on the first 64 MiB of output: a small file may be as repetitive as it likes. */
export const RATIO_GRACE = 64 * MiB

/**
 * At most this much decompressed text per file (64 GiB): far past any file a desktop import takes from a compressed
 * file in one go, and the bound on the time a compressed file can take. A plain file has no such limit.
 */
export const MAX_DECOMPRESSED = 64 * GiB

/** A human size: `1.9 GiB`, `34 KB`-style (binary units). */
export function bytesText(bytes: number): string {
  if (bytes >= GiB) return `${trim(bytes / GiB)} GiB`
  if (bytes >= MiB) return `${trim(bytes / MiB)} MiB`
  if (bytes >= 1024) return `${trim(bytes / 1024)} KiB`
  return `${bytes} bytes`
}

function trim(n: number): string {
  return n >= 100 ? Math.round(n).toLocaleString('en') : String(Math.round(n * 10) / 10)
}
