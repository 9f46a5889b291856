import type { IpcMainEvent, WebContents } from 'electron'
import { LINK_CHANNEL } from '../contract/channels'
import { MAX_LINK_LENGTH, VIEW_LINK_SCHEME } from '../contract/viewLink'
import type { IpcMainLike } from './ipc'

/** Links kept while no page takes them (the window still loading): the newest few; a flood keeps no more. */
const MAX_PENDING = 8

/**
 * The `lance-catalog://` link in a command line (Windows and Linux hand a link to the app as an argument: the first
 * launch's argv, or the argv a second launch passes to `second-instance`), or null. Main reads nothing else of it:
 * the page parses it and refuses a bad one in words; main only bounds what it forwards.
 */
export function linkFromArgv(argv: readonly string[]): string | null {
  const found = argv.find((arg) => typeof arg === 'string' && arg.toLowerCase().startsWith(VIEW_LINK_SCHEME))
  return found === undefined ? null : bounded(found)
}

/** An over-long link goes on cut (one character past the limit), so the page can say it was too long. */
function bounded(url: string): string {
  return url.length > MAX_LINK_LENGTH ? url.slice(0, MAX_LINK_LENGTH + 1) : url
}

/**
 * Links on their way to the window: held until the page asks (its preload sends on LINK_CHANNEL once it can take
 * them), then sent as they come. A new page (a reload, a window made again on macOS) asks again.
 */
export class LinkInbox {
  private pending: string[] = []
  private page: WebContents | null = null

  receive(url: string): void {
    const link = bounded(url)
    if (this.page && !this.page.isDestroyed()) this.page.send(LINK_CHANNEL, link)
    else this.pending = [...this.pending, link].slice(-MAX_PENDING)
  }

  /** The app's page is ready for links (the caller has checked it is the app's own window). */
  ready(page: WebContents): void {
    this.page = page
    const held = this.pending
    this.pending = []
    for (const link of held) page.send(LINK_CHANNEL, link)
  }
}

/** The page's "ready for links", taken only from the app's own window, main frame, at the app's own URL. */
export function registerLinkRequests(ipcMain: IpcMainLike, inbox: LinkInbox, isTrustedSender: (event: IpcMainEvent) => boolean): void {
  ipcMain.on?.(LINK_CHANNEL, (event) => {
    if (isTrustedSender(event)) inbox.ready(event.sender)
  })
}
