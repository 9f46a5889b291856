/** `dialogs/pickFiles`: the host's native file picker ("Import…"), or a clear refusal where there is none. */
import { describe, expect, it } from 'vitest'
import { CatalogService, MemoryRecentsStore } from '../../src/core/service'

describe('dialogs/pickFiles', () => {
  it('is refused with a way forward when the host has no file dialog (the harness)', async () => {
    const service = new CatalogService({ host: 'harness', version: 't', recents: new MemoryRecentsStore() })
    const result = await service.dispatch('dialogs/pickFiles', {})
    expect(result).toMatchObject({ ok: false, error: { code: 'unsupported', message: expect.stringMatching(/drop the files/) } })
  })

  it('returns the chosen paths and passes the filters through', async () => {
    const calls: unknown[] = []
    const service = new CatalogService({
      host: 'electron',
      version: 't',
      recents: new MemoryRecentsStore(),
      pickFiles: async (filters) => {
        calls.push(filters)
        return ['/data/a.arrow', '/data/b.csv']
      },
    })
    const filters = [{ name: 'CSV', extensions: ['csv'] }]
    expect(await service.dispatch('dialogs/pickFiles', { filters })).toEqual({ ok: true, value: { paths: ['/data/a.arrow', '/data/b.csv'] } })
    expect(calls).toEqual([filters])
    // Bad filters are refused before the dialog opens.
    const bad = await service.dispatch('dialogs/pickFiles', { filters: [{ name: 'x', extensions: ['../etc'] }] })
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(calls).toHaveLength(1)
  })
})
