import type { Table } from 'apache-arrow'

/** A small LRU cache of decoded pages, keyed by page index. */
export class PageCache {
  private readonly pages = new Map<number, Table>()
  constructor(private readonly capacity: number) {}

  get(index: number): Table | undefined {
    const page = this.pages.get(index)
    if (page) {
      // Re-insert: Map keeps insertion order, so the first key is the least recently used.
      this.pages.delete(index)
      this.pages.set(index, page)
    }
    return page
  }

  has(index: number): boolean {
    return this.pages.has(index)
  }

  set(index: number, page: Table): void {
    this.pages.delete(index)
    this.pages.set(index, page)
    while (this.pages.size > this.capacity) {
      const oldest = this.pages.keys().next().value
      if (oldest === undefined) break
      this.pages.delete(oldest)
    }
  }
}
