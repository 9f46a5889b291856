/**
 * Keep up to `depth` items of `source` requested ahead of the consumer, so the producer (Lance decoding on
 * its own threads) works while the consumer (a format writer on the JS thread) encodes. Bounded: at most
 * `depth` items wait, whatever the pace of either side. Errors surface in order; `return()` stops the source.
 */
export async function* readAhead<T>(source: AsyncIterable<T>, depth = 2): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]()
  const pending: Promise<IteratorResult<T>>[] = []
  let ended = false
  const fill = () => {
    while (!ended && pending.length < depth) {
      const next = iterator.next()
      pending.push(next)
      // Stop asking once the source ends (or fails): an iterator must not be pulled past its end.
      next.then((r) => (ended ||= !!r.done), () => (ended = true))
    }
  }
  try {
    for (;;) {
      fill()
      const result = await pending.shift()!
      if (result.done) return
      yield result.value
    }
  } finally {
    // Let requests already made settle before closing the source (a generator refuses return() while running).
    await Promise.allSettled(pending)
    await iterator.return?.()
  }
}
