import { describe, expect, it, vi } from 'vitest'

// No Electron binary here: `dialog.showSaveDialog` is replaced by a recorder.
const recorded = vi.hoisted(() => ({ calls: [] as unknown[][], answer: { canceled: false, filePath: '/home/me/rows.parquet' } as { canceled: boolean; filePath?: string } }))

vi.mock('electron', () => ({
  dialog: {
    showSaveDialog: async (...args: unknown[]) => {
      recorded.calls.push(args)
      return recorded.answer
    },
  },
}))

const { createSaveFile } = await import('../../src/main/saveDialog')

describe('dialogs/saveFile (main)', () => {
  it('opens the native save dialog on the app window with the suggested name and filters', async () => {
    const window = { id: 1 }
    const saveFile = createSaveFile(() => window as never)
    const path = await saveFile({ defaultName: 'rows.parquet', filters: [{ name: 'Parquet', extensions: ['parquet'] }] })
    expect(path).toBe('/home/me/rows.parquet')
    const [owner, options] = recorded.calls.at(-1) as [unknown, { defaultPath: string; filters: { name: string; extensions: string[] }[]; properties: string[] }]
    expect(owner).toBe(window)
    expect(options.defaultPath).toBe('rows.parquet')
    expect(options.filters[0]).toEqual({ name: 'Parquet', extensions: ['parquet'] })
    expect(options.properties).toContain('showOverwriteConfirmation')
  })

  it('answers null when the user cancels, and works without a window', async () => {
    recorded.answer = { canceled: true }
    const saveFile = createSaveFile(() => null)
    expect(await saveFile({})).toBeNull()
    expect(recorded.calls.at(-1)).toHaveLength(1)
  })
})
