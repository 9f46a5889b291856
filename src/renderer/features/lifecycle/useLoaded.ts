import { useCallback, useEffect, useState } from 'react'
import type { AppErrorData } from '../../../contract'
import { errorData } from '../../components/ErrorPanel'

export type Loaded<T> = { state: 'loading' } | { state: 'error'; error: AppErrorData } | { state: 'ready'; value: T }

/**
 * What a lifecycle panel lists: `load()` runs when `key` changes and on `refresh()`; a late answer of an earlier
 * run is dropped. `onSettled` runs after each answer (the panels tell the table view they have news).
 */
export function useLoaded<T>(load: () => Promise<T>, key: unknown, onSettled?: () => void): { loaded: Loaded<T>; refresh: () => void } {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' })
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    load()
      .then((value) => live && setLoaded({ state: 'ready', value }))
      .catch((e: unknown) => live && setLoaded({ state: 'error', error: errorData(e) }))
      .finally(() => live && onSettled?.())
    return () => {
      live = false
    }
    // `load` is a fresh closure each render; `key` says what it reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, attempt, onSettled])
  const refresh = useCallback(() => setAttempt((a) => a + 1), [])
  return { loaded, refresh }
}
