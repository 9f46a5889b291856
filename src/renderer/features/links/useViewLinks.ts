import { useMutation } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { TableRef } from '../../../contract'
import { parseViewLink, type ViewLink } from '../../../contract/viewLink'
import { call, onHostEvent } from '../../api'
import { errorData } from '../../components/ErrorPanel'
import { useConnections } from '../../queries/connections'
import { openDirectory, useRemote } from '../connections'
import { useWorkbench } from '../workbench'
import { describeCatalog, matchingConnection } from './viewLinkOf'

/** What the link prompt shows: a question before connecting, or why a link could not be opened. */
export type LinkNotice =
  | { kind: 'ask'; link: ViewLink; catalog: string; connecting: boolean }
  | { kind: 'failed'; title: string; message: string; hint?: string }

/**
 * Opening links to a view: from main (`app/openLink`: the command line, a second launch, macOS open-url) and, in the
 * harness, from the `view` parameter of the page's fragment. A link whose catalog is open opens its view in a
 * new tab; one whose catalog is not asks first ("Connect to …?"): a directory or object-store URI is opened as the
 * app opens one, a REST catalog only through a saved connection with that endpoint (its key stays in the app),
 * else the connection dialog opens without one. A gone table or version is said, not shown as an empty view.
 */
export function useViewLinks() {
  const connections = useConnections()
  const workbench = useWorkbench()
  const remote = useRemote()
  const { mutateAsync: openDir } = useMutation(openDirectory)
  const [notice, setNotice] = useState<LinkNotice | null>(null)
  // The link waiting for its catalog to open (after "Connect"): opened when the catalog appears in the open list.
  const waiting = useRef<ViewLink | null>(null)
  // What the handlers read when a link comes (they are subscribed once).
  const latest = useRef({ connections, workbench })
  useEffect(() => {
    latest.current = { connections, workbench }
  })

  const openView = useCallback(async (link: ViewLink, connectionId: string) => {
    const ref: TableRef = { connectionId, namespace: link.namespace, name: link.table }
    let newest: number
    try {
      // The table (and the version) must still be there: said in words, not shown as an empty tab. The latest
      // version is read too: a pinned view says which version is the latest ("version 3 of 5").
      const at = { ...ref, namespace: [...ref.namespace] }
      newest = (await call('tables/describe', at)).version
      if (link.version !== undefined) await call('tables/describe', { ...at, version: link.version })
    } catch (error) {
      const data = errorData(error)
      const what = [...link.namespace, link.table].join('/') + (link.version !== undefined ? ` at version ${link.version}` : '')
      setNotice({ kind: 'failed', title: `The linked table ${what} could not be opened`, message: data.message, hint: data.hint })
      return
    }
    setNotice(null)
    const initial = { ...(link.version !== undefined ? { version: link.version, latest: newest } : {}), ...(link.filter ? { filter: link.filter } : {}), ...(link.sort ? { sort: link.sort } : {}), ...(link.row !== undefined ? { row: link.row } : {}) }
    latest.current.workbench.openTab({ kind: 'table', connectionId, ref, view: initial, initial })
  }, [])

  const receive = useCallback(
    (url: string) => {
      let link: ViewLink
      try {
        link = parseViewLink(url)
      } catch (error) {
        const e = error as Error & { hint?: string }
        setNotice({ kind: 'failed', title: 'This link could not be opened', message: e.message, hint: e.hint })
        return
      }
      const open = matchingConnection(latest.current.connections, link.catalog)
      if (open) void openView(link, open.id)
      else setNotice({ kind: 'ask', link, catalog: describeCatalog(link.catalog), connecting: false })
    },
    [openView],
  )

  // Links from main; in the harness, the `view` parameter of its fragment (`#token=…&view=<the link, encoded>`),
  // beside the harness's token, also when it changes later (the address bar).
  useEffect(() => onHostEvent('app/openLink', ({ url }) => receive(url)), [receive])
  useEffect(() => {
    const fromFragment = () => {
      const params = new URLSearchParams(window.location.hash.replace(/^#/, ''))
      const view = params.get('view')
      if (view === null) return
      // Taken once: a reload does not open it again (the token stays).
      params.delete('view')
      history.replaceState(null, '', `${window.location.pathname}${window.location.search}#${params.toString()}`)
      receive(view)
    }
    fromFragment()
    window.addEventListener('hashchange', fromFragment)
    return () => window.removeEventListener('hashchange', fromFragment)
  }, [receive])

  // The waiting link opens once its catalog is among the open ones.
  useEffect(() => {
    const link = waiting.current
    const open = link && matchingConnection(connections, link.catalog)
    if (!link || !open) return
    waiting.current = null
    void openView(link, open.id)
  }, [connections, openView])

  // A connection dialog opened for a link and closed without connecting (Cancel) ends the wait: connecting that
  // catalog later, for another reason, opens no view. A connect closes the dialog in the same render as the
  // catalog joins the open list, so a match is there when a connect closes it.
  const { dialogOpen } = remote
  const wasOpen = useRef(false)
  useEffect(() => {
    const link = waiting.current
    if (wasOpen.current && !dialogOpen && link && !matchingConnection(connections, link.catalog)) waiting.current = null
    wasOpen.current = dialogOpen
  }, [dialogOpen, connections])

  const connect = useCallback(() => {
    if (notice?.kind !== 'ask') return
    const { link } = notice
    waiting.current = link
    const catalog = link.catalog
    if (catalog.kind === 'dir') {
      setNotice({ ...notice, connecting: true })
      openDir({ path: catalog.path }).catch((error: unknown) => {
        waiting.current = null
        const data = errorData(error)
        setNotice({ kind: 'failed', title: `Could not open ${catalog.path}`, message: data.message, hint: data.hint })
      })
      return
    }
    // A saved connection with the link's endpoint or URI opens with its own key; else the dialog opens with the
    // endpoint or URI filled in and no key (the link has none), and its Save & connect opens the view.
    const saved = remote.saved.find((s) => (s.kind === 'rest' ? catalog.kind === 'rest' && sameLocation(s.endpoint, catalog.endpoint) : catalog.kind === 'uri' && sameLocation(s.uri, catalog.uri)))
    setNotice(null)
    if (saved) remote.connect(saved)
    else remote.openNew(catalog.kind === 'rest' ? 'rest' : 'object-store', catalog.kind === 'rest' ? catalog.endpoint : catalog.uri)
  }, [notice, openDir, remote])

  const dismiss = useCallback(() => {
    waiting.current = null
    setNotice(null)
  }, [])

  return { notice, connect, dismiss }
}

function sameLocation(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '')
}
