import { describe, expect, it } from 'vitest'
import { encodeViewLink, linkCatalog, MAX_LINK_LENGTH, parseViewLink, VIEW_LINK_PREFIX, type ViewLink } from '../../src/contract/viewLink'

// The link format of "Copy link to this view" (src/contract/viewLink.ts): what a link made is read back the same,
// and what a hostile or careless link holds is refused in words — never a key, never unbounded work.

const full: ViewLink = {
  catalog: { kind: 'dir', path: '/home/ana/data/catalog with spaces & ünïcode' },
  namespace: ['landing', 'q1.2026'],
  table: 'orders-v2',
  version: 7,
  filter: "status = 'open' AND note LIKE '%a+b&c=d#e%'",
  sort: [
    { column: 'amount', direction: 'desc' },
    { column: '-odd name+', direction: 'asc' },
  ],
  row: 41,
}

describe('view links', () => {
  it('round-trips every part of a view, with characters a URL treats specially', () => {
    const text = encodeViewLink(full)
    expect(text.startsWith(VIEW_LINK_PREFIX)).toBe(true)
    expect(parseViewLink(text)).toEqual(full)
  })

  it('round-trips each kind of catalog and the smallest view (latest version, no filter, sort or row)', () => {
    for (const catalog of [linkCatalog('dir', '/data/c'), linkCatalog('dir', 's3://bucket/catalog'), linkCatalog('rest', 'https://catalog.example.com:8443/api')]) {
      const link: ViewLink = { catalog, namespace: [], table: 't' }
      expect(parseViewLink(encodeViewLink(link))).toEqual(link)
    }
    expect(linkCatalog('dir', 's3://bucket/catalog')).toEqual({ kind: 'uri', uri: 's3://bucket/catalog' })
    expect(linkCatalog('dir', 'C:\\data\\c')).toEqual({ kind: 'dir', path: 'C:\\data\\c' })
  })

  it('never carries a key: credentials or a query in a REST endpoint or object-store URI are refused, not dropped', () => {
    expect(() => encodeViewLink({ ...full, catalog: { kind: 'rest', endpoint: 'https://user:s3cret@catalog.example.com' } })).toThrow(/user name or password; links never carry credentials/)
    expect(() => encodeViewLink({ ...full, catalog: { kind: 'rest', endpoint: 'https://catalog.example.com/?api_key=s3cret' } })).toThrow(/query or fragment; links never carry keys/)
    expect(() => encodeViewLink({ ...full, catalog: { kind: 'uri', uri: 'az://container/c?sv=2024&sig=s3cret' } })).toThrow(/never carry keys/)
    const hand = `${VIEW_LINK_PREFIX}rest=${encodeURIComponent('http://k:s3cret@host')}&table=t`
    expect(() => parseViewLink(hand)).toThrow(/never carry credentials/)
    // The message names the problem, not the secret.
    expect(() => parseViewLink(hand)).not.toThrow(/s3cret/)
    // A key or header is not a parameter at all.
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}rest=http%3A%2F%2Fhost&table=t&header=Authorization%3A%20Bearer%20x`)).toThrow('unknown parameter "header"')
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}rest=http%3A%2F%2Fhost&table=t&api_key=x`)).toThrow('unknown parameter "api_key"')
  })

  it('refuses unknown parameters, repeated ones and malformed values in words', () => {
    const base = `${VIEW_LINK_PREFIX}dir=%2Fdata&table=t`
    expect(() => parseViewLink(`${base}&colour=red`)).toThrow('The link has an unknown parameter "colour"')
    expect(() => parseViewLink(`${base}&table=u`)).toThrow('names "table" twice')
    expect(() => parseViewLink(`${base}&version=0`)).toThrow('version must be a whole number of 1 or more, not "0"')
    expect(() => parseViewLink(`${base}&version=3.5`)).toThrow(/version must be a whole number/)
    expect(() => parseViewLink(`${base}&row=-1`)).toThrow(/row must be a whole number of 0 or more/)
    expect(() => parseViewLink(`${base}&sort=amount`)).toThrow('must be +column or -column')
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}dir=%2Fdata&table=..`)).toThrow(/table name "\.\." "\.\." is not allowed/)
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}dir=%2Fdata&ns=a%2Fb&table=t`)).toThrow(/namespace name "a\/b" contains "\/"/)
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}dir=%2Fdata`)).toThrow('names no table')
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}table=t`)).toThrow('names no catalog')
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}dir=%2Fa&uri=s3%3A%2F%2Fb&table=t`)).toThrow('names 2 catalogs (dir, uri); one is allowed')
    expect(() => parseViewLink('https://example.com/?table=t')).toThrow('must start with lance-catalog://open?')
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}rest=ftp%3A%2F%2Fhost&table=t`)).toThrow('must be http or https')
  })

  it('bounds the work: an over-long link, filter, location or too many parameters is refused before it is read', () => {
    const long = `${VIEW_LINK_PREFIX}dir=%2Fdata&table=t&filter=${'x'.repeat(MAX_LINK_LENGTH)}`
    expect(() => parseViewLink(long)).toThrow(`at most ${MAX_LINK_LENGTH} are accepted`)
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}dir=%2Fdata&table=t&filter=${'y'.repeat(10_001)}`)).toThrow("filter is 10001 characters long; at most 10000")
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}dir=${'z'.repeat(2049)}&table=t`)).toThrow('dir is 2049 characters long; at most 2048')
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}dir=%2Fdata&table=t${'&ns=a'.repeat(101)}`)).toThrow('more than 100 parameters')
    expect(() => parseViewLink(`${VIEW_LINK_PREFIX}dir=%2Fdata&table=t${'&sort=%2Ba'.repeat(9)}`)).toThrow('sorts by 9 columns; at most 8')
    // An over-long value in a refusal is cut, not echoed whole.
    try {
      parseViewLink(`${VIEW_LINK_PREFIX}dir=%2Fdata&table=t&${'q'.repeat(5000)}=1`)
      expect.unreachable()
    } catch (error) {
      expect((error as Error).message.length).toBeLessThan(400)
    }
  })
})
