import { readdirSync, readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'

/**
 * Is the catalog host answering? From the page, a cheap call (`app/info`) every 100 ms through the window's own way
 * to the host — the preload's bridge in the desktop app, HTTP with the token in the harness — and the longest any
 * call took, or has been waiting, since the last read. A host that stalls shows here as it would to a user.
 */
export async function startAnswerProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Probe = { max: number; count: number; since: number | null; from: number; stop: boolean }
    const w = globalThis as unknown as { __lcbProbe?: Probe; catalog?: { invoke(m: string, i: object): Promise<unknown> }; location: { hash: string } }
    if (w.__lcbProbe) return
    const probe: Probe = (w.__lcbProbe = { max: 0, count: 0, since: null, from: performance.now(), stop: false })
    const token = new URLSearchParams(w.location.hash.slice(1)).get('token') ?? ''
    const call = () =>
      w.catalog
        ? w.catalog.invoke('app/info', {})
        : fetch('/api/app/info', { method: 'POST', headers: { 'content-type': 'application/json', 'x-harness-token': token }, body: '{}' }).then((r) => r.json())
    void (async () => {
      while (!probe.stop) {
        probe.since = performance.now()
        await call().catch(() => undefined)
        // A call that began before the last read counts from that read only.
        probe.max = Math.max(probe.max, performance.now() - Math.max(probe.since, probe.from))
        probe.since = null
        probe.count++
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    })()
  })
}

/**
 * The longest answer (ms) since the last read, a call still waiting counted as far as it has waited; then starts over.
 * The probe runs in the page's own thread: read it after work the test does in the page (building a dropped file's
 * bytes), so that work is not counted as the host's.
 */
export async function readAnswerProbe(page: Page): Promise<{ maxMs: number; calls: number }> {
  return page.evaluate(() => {
    const probe = (globalThis as unknown as { __lcbProbe: { max: number; count: number; since: number | null; from: number } }).__lcbProbe
    const now = performance.now()
    const waiting = probe.since === null ? 0 : now - Math.max(probe.since, probe.from)
    const answer = { maxMs: Math.max(probe.max, waiting), calls: probe.count }
    probe.max = 0
    probe.count = 0
    probe.from = now
    return answer
  })
}

/**
 * The highest resident memory (VmHWM, MiB) any process of the tree under `root` reached while watched, sampled from
 * /proc every `everyMs` (Linux; elsewhere it reports nothing). A reader that lives between two samples is missed, so
 * the interval is short; VmHWM is each process's own peak, so a spike between samples of a live process is not.
 */
export function watchProcessTree(root: number, everyMs = 50): { stop(): { peakMiB: number; processes: number } } {
  const peaks = new Map<number, number>()
  const sample = () => {
    let entries: string[]
    try {
      entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
    } catch {
      return
    }
    const parent = new Map<number, number>()
    for (const name of entries) {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
        parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
      } catch {
        // gone
      }
    }
    const inTree = (pid: number): boolean => {
      for (let at: number | undefined = pid, hops = 0; at !== undefined && at > 1 && hops < 64; at = parent.get(at), hops++) if (at === root) return true
      return false
    }
    for (const pid of parent.keys()) {
      if (!inTree(pid)) continue
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0)
        peaks.set(pid, Math.max(peaks.get(pid) ?? 0, kb / 1024))
      } catch {
        // gone
      }
    }
  }
  sample()
  const timer = setInterval(sample, everyMs)
  return {
    stop() {
      clearInterval(timer)
      sample()
      return { peakMiB: Math.max(0, ...peaks.values()), processes: peaks.size }
    },
  }
}
