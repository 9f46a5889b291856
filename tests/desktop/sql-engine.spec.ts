import { expect, test } from '@playwright/test'
import { tableFromIPC } from 'apache-arrow'
import { launchRig } from './rig/rig'

type Bridge = { invoke(method: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> }

// The SQL engine on the desktop (#39): DuckDB runs in the built catalog host; `sql/run` goes through main, the
// result's pages come back over the window's port like a table's (sql/page answers bytes). The query view itself
// is the sqlui part's; this checks the engine's path through the real processes.
test.describe('desktop app (rig) — SQL engine in the catalog host', () => {
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured object
  test('a query over the demo catalog runs in the host and pages back over the port; ATTACH is refused in words', async ({}, testInfo) => {
    const app = await launchRig({ userData: testInfo.outputPath('userData') })
    try {
      const page = await app.window()
      await page.waitForFunction(() => 'catalog' in window, undefined, { timeout: 60_000 })
      const answer = await page.evaluate(async () => {
        const bridge = (window as unknown as { catalog: Bridge }).catalog
        // The demo catalog opens at start; wait for it.
        let connectionId: string | undefined
        for (let i = 0; i < 600 && !connectionId; i++) {
          const info = await bridge.invoke('app/info', {})
          connectionId = (info.value as { initialConnection?: { id: string } } | undefined)?.initialConnection?.id
          if (!connectionId) await new Promise((resolve) => setTimeout(resolve, 100))
        }
        const run = await bridge.invoke('sql/run', { connectionId, sql: 'SELECT count(*) AS n, count(DISTINCT a.name) AS albums FROM demo.images.albums a' })
        if (!run.ok) return { error: run.error }
        const queryId = (run.value as { queryId: string }).queryId
        const page = await bridge.invoke('sql/page', { queryId, offset: 0, limit: 100 })
        const refused = await bridge.invoke('sql/run', { connectionId, sql: "ATTACH ':memory:' AS x" })
        if (!page.ok) return { error: page.error }
        // Over the window's port a page arrives as one exact ArrayBuffer (src/host/transfer.ts).
        return { bytes: Array.from(new Uint8Array(page.value as ArrayBuffer)), refused: refused.error }
      })
      expect(answer.error).toBeUndefined()
      const table = tableFromIPC(Uint8Array.from(answer.bytes!))
      expect(Number(table.getChild('n')!.get(0))).toBe(5)
      expect(Number(table.getChild('albums')!.get(0))).toBe(5)
      expect(answer.refused?.code).toBe('unsupported')
      expect(answer.refused?.message).toMatch(/ATTACH is refused/)
    } finally {
      await app.dispose()
    }
  })
})
