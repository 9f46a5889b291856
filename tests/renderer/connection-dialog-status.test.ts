import { describe, expect, it } from 'vitest'
import { dialogStatus, type CallState } from '../../src/renderer/features/connections/dialogStatus'

// The connection dialog's busy flag, error and report come from its three mutations' states (Save, Save & connect,
// the test), as TanStack Query's useMutation reports them; nothing is kept by hand. These are the rules the dialog
// showed when it kept them itself.
const idle: CallState = { status: 'idle', variables: undefined, data: undefined, error: null }
const refused = { code: 'unauthenticated', message: 'The server refused the key' }
const cancelledError = { code: 'cancelled', message: 'Cancelled' }
type Test = CallState<{ what: 'test' | 'write-test'; requestId: string }, { ok: boolean }>
const testing = (patch: Partial<Test>): Test => ({ ...idle, variables: { what: 'write-test', requestId: 'r1' }, ...patch }) as Test

describe('connection dialog status', () => {
  it('a running test is busy with its kind and cancel id; nothing is shown yet', () => {
    const s = dialogStatus(idle, idle, testing({ status: 'pending' }))
    expect(s.busy).toEqual({ what: 'write-test', requestId: 'r1' })
    expect(s.failed).toBeNull()
    expect(s.report).toBeNull()
  })

  it("a failed test shows its error, titled by the test; a cancelled one is a note, not an error", () => {
    const failed = dialogStatus(idle, idle, testing({ status: 'error', error: refused }))
    expect([failed.busy, failed.failed, failed.lastAction, failed.cancelled]).toEqual([null, refused, { what: 'write-test' }, false])
    const cancelled = dialogStatus(idle, idle, testing({ status: 'error', error: cancelledError }))
    expect([cancelled.failed, cancelled.cancelled]).toEqual([null, true])
  })

  it("a write keeps the last test's report but its error replaces the test's", () => {
    const report = { ok: true }
    const saving = dialogStatus({ ...idle, status: 'pending' }, idle, testing({ status: 'success', data: report }))
    expect([saving.busy, saving.report]).toEqual([{ what: 'save' }, report])
    const afterFailedTest = dialogStatus(idle, { ...idle, status: 'pending' }, testing({ status: 'error', error: refused }))
    expect([afterFailedTest.busy, afterFailedTest.failed]).toEqual([{ what: 'connect' }, null])
    const connectFailed = dialogStatus(idle, { ...idle, status: 'error', error: refused }, testing({ status: 'success', data: report }))
    expect([connectFailed.failed, connectFailed.lastAction, connectFailed.report]).toEqual([refused, { what: 'connect' }, report])
  })

  it('nothing run: not busy, nothing to show', () => {
    expect(dialogStatus(idle, idle, idle as Test)).toEqual({ busy: null, lastAction: null, failed: null, cancelled: false, report: null })
  })
})
