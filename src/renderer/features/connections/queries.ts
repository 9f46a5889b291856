import { queryOptions } from '@tanstack/react-query'
import type { Input, ObjectStoreTestReport, SavedKind, VerificationReport } from '../../../contract'
import { call } from '../../api'
import { keys } from '../../queries/keys'

/** Saved connections of both kinds (servers first); a failed listing shows none (the start screen still works). */
export const savedQuery = queryOptions({ queryKey: keys.saved, queryFn: () => call('connections/saved/list', {}) })

/** "Test" of a saved connection or a form: the report of the kind asked for (the core answers per kind). */
export function testSaved<K extends SavedKind>(input: Extract<Input<'connections/saved/test'>, { kind: K }>) {
  return call('connections/saved/test', input) as Promise<K extends 'rest' ? VerificationReport : ObjectStoreTestReport>
}

export const recentsQuery = queryOptions({ queryKey: keys.recents, queryFn: () => call('connections/recent', {}) })

