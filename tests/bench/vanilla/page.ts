/**
 * The minimal hand-written page the UI benchmark measures our grid against: plain DOM, no
 * framework. It reads the same Arrow pages from the same harness API with the same token, decodes them with
 * apache-arrow and paints a fixed-height window of rows, using the grid's ARIA shape (role=grid/row/gridcell,
 * aria-rowindex, `.cell-text`) so one in-page probe times both. Bundled by bench/ui.ts with esbuild.
 */
import { tableFromIPC, type Table } from 'apache-arrow'

const ROW_HEIGHT = 24
const PAGE_ROWS = 100
const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? ''

async function api(method: string, input: unknown): Promise<unknown> {
  const response = await fetch(`/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-harness-token': token },
    body: JSON.stringify(input),
  })
  if ((response.headers.get('content-type') ?? '').startsWith('application/vnd.apache.arrow.stream')) {
    return tableFromIPC(new Uint8Array(await response.arrayBuffer()))
  }
  const result = (await response.json()) as { ok: boolean; value?: unknown; error?: { message: string } }
  if (!result.ok) throw new Error(result.error?.message)
  return result.value
}

interface Ref { connectionId: string; namespace: string[]; name: string }
interface View { version?: number; filter?: string; sort?: { column: string; direction: 'asc' | 'desc' }[] }

const grid = document.createElement('div')
grid.setAttribute('role', 'grid')
grid.style.cssText = 'height: 600px; overflow: auto; position: relative; font: 13px system-ui'
const spacer = document.createElement('div')
const body = document.createElement('div')
body.style.cssText = 'position: absolute; left: 0; right: 0'
grid.append(spacer, body)
document.body.append(grid)

let ref: Ref | null = null
let view: View = {}
let total = 0
let pages = new Map<number, Table | Promise<void>>()

function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL'
  if (typeof value === 'object' && 'toArray' in (value as object)) {
    const values = (value as { toArray(): Float32Array }).toArray()
    return `[${Array.from(values.subarray(0, 4), (v) => v.toFixed(3)).join(', ')}, …] (${values.length})`
  }
  return String(value)
}

function paint(): void {
  const first = Math.floor(grid.scrollTop / ROW_HEIGHT)
  const end = Math.min(total, first + Math.ceil(grid.clientHeight / ROW_HEIGHT) + 1)
  const rows: HTMLElement[] = []
  for (let row = first; row < end; row++) {
    const index = Math.floor(row / PAGE_ROWS)
    const page = pages.get(index)
    if (!page) pages.set(index, load(index))
    if (!page || page instanceof Promise) continue
    const tr = document.createElement('div')
    tr.setAttribute('role', 'row')
    tr.setAttribute('aria-rowindex', String(row + 2))
    tr.style.cssText = `position: absolute; top: ${(row - first) * ROW_HEIGHT}px; height: ${ROW_HEIGHT}px; display: flex; white-space: nowrap`
    const record = page.get(row - index * PAGE_ROWS)
    for (const field of page.schema.fields) {
      const td = document.createElement('div')
      td.setAttribute('role', 'gridcell')
      td.style.cssText = 'width: 160px; overflow: hidden; padding: 0 6px'
      const span = document.createElement('span')
      span.className = 'cell-text'
      span.textContent = cellText(record?.[field.name])
      td.append(span)
      tr.append(td)
    }
    rows.push(tr)
  }
  body.style.top = `${first * ROW_HEIGHT}px`
  body.replaceChildren(...rows)
}

function load(index: number): Promise<void> {
  const offset = index * PAGE_ROWS
  const input = { ...ref, offset, limit: Math.min(PAGE_ROWS, total - offset), view }
  return (api('tables/page', input) as Promise<Table>).then((table) => {
    if (pages.get(index) === undefined) return
    pages.set(index, table)
    paint()
  })
}

function reset(count: number): void {
  total = count
  pages = new Map()
  spacer.style.height = `${total * ROW_HEIGHT}px`
  grid.scrollTop = 0
  paint()
}

grid.addEventListener('scroll', paint)

/** The page's "user actions", called by the benchmark's probe. */
Object.assign(window, {
  vanilla: {
    /** Like clicking a table: describe it (version, row count), then paint its first rows. */
    async open(table: Ref): Promise<void> {
      ref = table
      pages = new Map()
      body.replaceChildren()
      const info = (await api('tables/describe', table)) as { version: number; rowCount: number }
      view = { version: info.version }
      reset(info.rowCount)
    },
    /** A new view (filter, sort): count its rows and read its first page at once. */
    async apply(next: View): Promise<void> {
      view = { version: view.version, ...next }
      pages = new Map()
      body.replaceChildren()
      const firstPage = api('tables/page', { ...ref, offset: 0, limit: PAGE_ROWS, view }) as Promise<Table>
      const count = (await api('tables/count', { ...ref, view })) as number
      const table = await firstPage
      total = count
      spacer.style.height = `${total * ROW_HEIGHT}px`
      grid.scrollTop = 0
      pages.set(0, table)
      paint()
    },
  },
})
