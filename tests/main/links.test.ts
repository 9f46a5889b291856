import { describe, expect, it } from 'vitest'
import { LINK_CHANNEL } from '../../src/contract/channels'
import { MAX_LINK_LENGTH } from '../../src/contract/viewLink'
import { LinkInbox, linkFromArgv } from '../../src/main/links'

// Main's part of links to a view (src/main/links.ts): the link found in a command line, and links held until the
// page can take them, then sent as they come.

function page() {
  const sent: unknown[][] = []
  return { sent, destroyed: false, send: (...args: unknown[]) => sent.push(args), isDestroyed() { return this.destroyed } }
}

describe('links in main', () => {
  it('finds the link in argv wherever the OS put it (after the executable, the script, flags)', () => {
    expect(linkFromArgv(['/opt/app/lance', '--no-sandbox', 'lance-catalog://open?dir=%2Fd&table=t'])).toBe('lance-catalog://open?dir=%2Fd&table=t')
    expect(linkFromArgv(['electron', 'out/main/index.js', 'LANCE-CATALOG://open?x'])).toBe('LANCE-CATALOG://open?x')
    expect(linkFromArgv(['/opt/app/lance', '--flag', 'https://example.com'])).toBeNull()
  })

  it('bounds what it forwards: an over-long link goes on cut just past the limit, for the page to refuse in words', () => {
    const long = `lance-catalog://open?filter=${'x'.repeat(MAX_LINK_LENGTH * 4)}`
    expect(linkFromArgv([long])!.length).toBe(MAX_LINK_LENGTH + 1)
  })

  it('holds links until the page asks, sends later ones at once, and keeps only the newest few meanwhile', () => {
    const inbox = new LinkInbox()
    for (let i = 0; i < 12; i++) inbox.receive(`lance-catalog://open?n=${i}`)
    const first = page()
    inbox.ready(first as never)
    expect(first.sent.map((args) => args[1])).toEqual(Array.from({ length: 8 }, (_, i) => `lance-catalog://open?n=${i + 4}`))
    expect(first.sent.every((args) => args[0] === LINK_CHANNEL)).toBe(true)
    inbox.receive('lance-catalog://open?late')
    expect(first.sent.at(-1)).toEqual([LINK_CHANNEL, 'lance-catalog://open?late'])
    // The page went (a window closed on macOS): links wait for the next one.
    first.destroyed = true
    inbox.receive('lance-catalog://open?waiting')
    const next = page()
    inbox.ready(next as never)
    expect(next.sent).toEqual([[LINK_CHANNEL, 'lance-catalog://open?waiting']])
  })
})
