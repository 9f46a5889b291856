import { errorData } from '../../components/ErrorPanel'
import type { Busy } from './useConnectionForm'

/** What the dialog reads of one of its mutations (TanStack Query's `useMutation` result has these). */
export interface CallState<V = unknown, D = unknown> {
  status: 'idle' | 'pending' | 'error' | 'success'
  variables: V | undefined
  data: D | undefined
  error: unknown
}

/**
 * The connection dialog's status from its three mutations — Save, Save & connect and the test — instead of flags
 * kept by hand. A test resets the writes (its outcome is the newest); a write keeps the last test's report and
 * cancel note (still true of the form) but its error replaces the test's.
 */
export function dialogStatus<Test extends string, Report>(save: CallState, connect: CallState, test: CallState<{ what: Test; requestId: string }, Report>) {
  const writing = save.status !== 'idle' || connect.status !== 'idle'
  const busy: Busy<Test> =
    save.status === 'pending' ? { what: 'save' } : connect.status === 'pending' ? { what: 'connect' } : test.status === 'pending' && test.variables ? { what: test.variables.what, requestId: test.variables.requestId } : null
  /** What the shown error came from (busy is null again by the time it shows). */
  const lastAction: Busy<Test> = save.status !== 'idle' ? { what: 'save' } : connect.status !== 'idle' ? { what: 'connect' } : test.variables ? { what: test.variables.what } : null
  // A cancel the user asked for is not an error to show.
  const cancelled = test.status === 'error' && errorData(test.error).code === 'cancelled'
  /** The raw error to show (the caller keeps its words stable across renders). */
  const failed: unknown = save.error ?? connect.error ?? (writing || cancelled ? null : test.error) ?? null
  return { busy, lastAction, failed, cancelled, report: test.data ?? null }
}
