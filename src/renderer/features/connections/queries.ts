import { queryOptions } from '@tanstack/react-query'
import { call } from '../../api'
import { keys } from '../../queries/keys'

/** Saved REST servers and object stores; a failed listing shows none (the start screen still works). */
export const savedQuery = queryOptions({ queryKey: keys.saved, queryFn: () => call('connections/saved/list', {}) })
export const storesQuery = queryOptions({ queryKey: keys.stores, queryFn: () => call('connections/objectStore/list', {}) })

export const recentsQuery = queryOptions({ queryKey: keys.recents, queryFn: () => call('connections/recent', {}) })

